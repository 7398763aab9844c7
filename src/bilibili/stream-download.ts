// HTTP-FLV download: manual redirects, a headers deadline, a no-data watchdog, chunks as an async iterator.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { type ClientOptions, DEFAULT_CLIENT_OPTIONS } from './client-options.js';
import { BiliErrorCode, BilibiliError } from './errors.js';
import { streamHeaders } from './headers.js';

// node:http rather than npm undici: one download per room worker, and node:http is both leaner (undici's
// import alone is about +8 MB RSS per worker) and faster for a plain long GET (508 vs 430 MB/s, stack.md).
// Keep-alive is off (agent: false): a live stream holds its connection for hours and is never reused.

export type StreamDownloadOptions = Pick<
  ClientOptions,
  'streamConnectTimeoutMs' | 'watchdogTimeoutMs' | 'userAgent' | 'maxRedirects'
> & { signal?: AbortSignal };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** An open 200 response. Iterate it for the body; iteration ends at end of stream or throws a coded error. */
export class StreamDownload implements AsyncIterable<Buffer> {
  /** Bytes of body received so far. */
  bytesReceived = 0;
  /** Body chunks received so far. */
  chunksReceived = 0;
  readonly openedAt = Date.now();
  private stopped = false;
  private iterated = false;

  constructor(
    private readonly res: IncomingMessage,
    /** The final URL after redirects. */
    readonly url: string,
    /** Every Location followed, in order. */
    readonly redirects: readonly string[],
    watchdogMs: number,
  ) {
    const socket = res.socket;
    socket.setTimeout(watchdogMs, () => {
      res.destroy(new BilibiliError(BiliErrorCode.StreamStalled, `No stream data for ${watchdogMs} ms from ${this.host}`));
    });
  }

  /** `scheme://host[:port]` actually connected to (after redirects). */
  get host(): string {
    return new URL(this.url).origin;
  }

  get contentType(): string {
    return String(this.res.headers['content-type'] ?? '');
  }

  /** Ends the download; a running iteration finishes without an error. */
  stop(): void {
    this.stopped = true;
    this.res.destroy();
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Buffer> {
    if (this.iterated) throw new Error('A StreamDownload can be iterated once');
    this.iterated = true;
    try {
      for await (const chunk of this.res as AsyncIterable<Buffer>) {
        this.bytesReceived += chunk.length;
        this.chunksReceived++;
        yield chunk;
      }
    } catch (err) {
      if (this.stopped) return;
      if (err instanceof BilibiliError) throw err;
      throw new BilibiliError(BiliErrorCode.StreamAborted, `Stream from ${this.host} broke off after ${this.bytesReceived} bytes: ${(err as Error).message}`, { cause: err });
    } finally {
      this.res.socket?.setTimeout(0);
      if (!this.res.destroyed) this.res.destroy();
    }
    if (!this.stopped && !this.res.complete) {
      throw new BilibiliError(BiliErrorCode.StreamAborted, `Stream from ${this.host} ended before its body did, after ${this.bytesReceived} bytes`);
    }
  }
}

/** Connects (following redirects by hand) and resolves once a 200 arrives; throws STREAM_* coded errors. */
export async function openStream(url: string, options: Partial<StreamDownloadOptions> = {}): Promise<StreamDownload> {
  const o = { ...DEFAULT_CLIENT_OPTIONS, ...options };
  const headers = streamHeaders(o);
  const redirects: string[] = [];
  let current: URL;
  try {
    current = new URL(url);
  } catch (err) {
    throw new BilibiliError(BiliErrorCode.StreamNetwork, `Bad stream URL ${url}`, { cause: err });
  }
  for (let hop = 0; ; hop++) {
    const res = await requestOnce(current, headers, o.streamConnectTimeoutMs, options.signal);
    const status = res.statusCode ?? 0;
    if (REDIRECTS.has(status)) {
      const location = res.headers.location;
      res.destroy();
      if (!location) throw new BilibiliError(BiliErrorCode.StreamRedirect, `HTTP ${status} without Location from ${current.origin}`, { httpStatus: status });
      if (hop >= o.maxRedirects) throw new BilibiliError(BiliErrorCode.StreamRedirect, `More than ${o.maxRedirects} redirects`, { httpStatus: status });
      try {
        current = new URL(location, current);
      } catch (err) {
        throw new BilibiliError(BiliErrorCode.StreamRedirect, `Bad redirect target ${location}`, { httpStatus: status, cause: err });
      }
      redirects.push(current.href);
      continue;
    }
    if (status !== 200) {
      res.destroy();
      throw new BilibiliError(BiliErrorCode.StreamHttpStatus, `Stream host ${current.origin} answered HTTP ${status}`, { httpStatus: status });
    }
    const download = new StreamDownload(res, current.href, redirects, o.watchdogTimeoutMs);
    const signal = options.signal;
    if (signal) {
      const onAbort = (): void => download.stop();
      signal.addEventListener('abort', onAbort, { once: true });
      // A long-lived signal (one per room) must not collect a listener per download.
      res.once('close', () => signal.removeEventListener('abort', onAbort));
    }
    return download;
  }
}

function requestOnce(url: URL, headers: Record<string, string>, timeoutMs: number, signal?: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      reject(new BilibiliError(BiliErrorCode.StreamNetwork, `Unsupported stream URL scheme ${url.protocol}`));
      return;
    }
    const mod = url.protocol === 'https:' ? https : http;
    let done = false;
    const onAbort = (): void => fail(new BilibiliError(BiliErrorCode.StreamNetwork, 'Stream request cancelled'));
    const settle = (): void => {
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const fail = (err: BilibiliError): void => {
      if (done) return;
      settle();
      req.destroy();
      reject(err);
    };
    const req = mod.get(url, { headers, agent: false }, (res) => {
      if (done) return void res.destroy();
      settle();
      resolve(res);
    });
    // Errors after the response arrived surface through the response body instead.
    req.on('error', (err) => fail(new BilibiliError(BiliErrorCode.StreamNetwork, `Stream request to ${url.origin} failed: ${err.message}`, { cause: err })));
    const timer = setTimeout(
      () => fail(new BilibiliError(BiliErrorCode.StreamConnectTimeout, `No response headers from ${url.origin} within ${timeoutMs} ms`)),
      timeoutMs,
    );
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}
