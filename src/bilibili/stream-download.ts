// HTTP-FLV download: manual redirects, a headers deadline, a no-data watchdog; zero-copy `consume` or an async iterator.
import { type ClientOptions, DEFAULT_CLIENT_OPTIONS } from './client-options.js';
import { BiliErrorCode, BilibiliError } from './errors.js';
import { streamHeaders } from './headers.js';
import { StreamConnection } from './stream-connection.js';

export type StreamDownloadOptions = Pick<
  ClientOptions,
  'streamConnectTimeoutMs' | 'watchdogTimeoutMs' | 'userAgent' | 'maxRedirects'
> & { signal?: AbortSignal; tlsCa?: string | Buffer; keepAlive?: boolean };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** An open 200 response. Read its body once: `consume` (recorder, no copies) or `for await` (copies each chunk). */
export class StreamDownload implements AsyncIterable<Buffer> {
  /** Body chunks received so far. */
  chunksReceived = 0;
  readonly openedAt = Date.now();
  private used = false;

  constructor(
    private readonly connection: StreamConnection,
    /** The final URL after redirects. */
    readonly url: string,
    /** Every Location followed, in order. */
    readonly redirects: readonly string[],
    private readonly signal?: AbortSignal,
  ) {}

  /** Body bytes received so far. */
  get bytesReceived(): number {
    return this.connection.bytesReceived;
  }

  /** `scheme://host[:port]` actually connected to (after redirects). */
  get host(): string {
    return new URL(this.url).origin;
  }

  get contentType(): string {
    return this.connection.head.headers['content-type'] ?? '';
  }

  /** Ends the download; a running read finishes without an error. */
  stop(): void {
    this.connection.stop();
  }

  get isStopped(): boolean {
    return this.connection.isStopped;
  }

  /**
   * Hands each body chunk to `onChunk` synchronously. The chunk is a view into a read buffer that is reused
   * as soon as `onChunk` returns: copy whatever must outlive the call. Resolves at the end of the stream
   * (or after `stop()`); rejects with STREAM_ABORTED / STREAM_STALLED / STREAM_NETWORK.
   */
  consume(onChunk: (chunk: Uint8Array) => void): Promise<void> {
    if (this.used) return Promise.reject(new Error('A StreamDownload can be read once'));
    this.used = true;
    // A long-lived signal (one per room) must not collect a listener per download.
    const onAbort = (): void => this.stop();
    this.signal?.addEventListener('abort', onAbort, { once: true });
    if (this.signal?.aborted) this.stop();
    return this.connection.consume((chunk) => {
      this.chunksReceived++;
      onChunk(chunk);
    }).finally(() => this.signal?.removeEventListener('abort', onAbort));
  }

  /** Convenience for tools and tests: each chunk copied into its own Buffer, no backpressure. */
  async *[Symbol.asyncIterator](): AsyncIterator<Buffer> {
    const queue: Buffer[] = [];
    let wake: (() => void) | null = null;
    let done = false;
    let failure: unknown = null;
    this.consume((c) => {
      queue.push(Buffer.from(c));
      wake?.();
    }).then(() => { done = true; wake?.(); }, (err: unknown) => { failure = err; done = true; wake?.(); });
    for (;;) {
      if (queue.length > 0) yield queue.shift()!;
      else if (done) break;
      else await new Promise<void>((resolve) => { wake = resolve; }).finally(() => { wake = null; });
    }
    if (failure) throw failure;
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
    if (current.protocol !== 'http:' && current.protocol !== 'https:') {
      throw new BilibiliError(BiliErrorCode.StreamNetwork, `Unsupported stream URL scheme ${current.protocol}`);
    }
    if (options.signal?.aborted) throw new BilibiliError(BiliErrorCode.StreamNetwork, 'Stream request cancelled');
    const connection = await StreamConnection.open(current, {
      headers, connectTimeoutMs: o.streamConnectTimeoutMs, watchdogMs: o.watchdogTimeoutMs, tlsCa: options.tlsCa, keepAlive: options.keepAlive,
    }, options.signal);
    const status = connection.head.status;
    if (REDIRECTS.has(status)) {
      const location = connection.head.headers.location;
      connection.stop();
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
      connection.stop();
      throw new BilibiliError(BiliErrorCode.StreamHttpStatus, `Stream host ${current.origin} answered HTTP ${status}`, { httpStatus: status });
    }
    return new StreamDownload(connection, current.href, redirects, options.signal);
  }
}
