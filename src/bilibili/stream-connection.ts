// One HTTP/1.1 GET on a raw socket that reads into a single reused buffer (kept alive between HLS requests): the cheap way to take in hours of FLV.
import net from 'node:net';
import tls from 'node:tls';
import { ChunkedDecoder } from './chunked-decoder.js';
import { cachedLookup } from './dns-cache.js';
import { BiliErrorCode, BilibiliError } from './errors.js';
import { MAX_HEAD_BYTES, headEnd, parseHead, type ResponseHead } from './http-head.js';
import { type Link, type LinkTarget, linkKey, newLink, readInto, release, takeIdle } from './keep-alive-pool.js';

/*
 * Why not node:http: receiving a 6 Mbps stream through node:http's IncomingMessage costs as much CPU as
 * ffmpeg's whole `-c copy` recording of it (measured: ~3.6 CPU-s per GB in, vs ~1.0 with this reader),
 * mostly per-read Buffer allocation and Readable machinery. Here the kernel writes into one buffer per
 * connection (net/tls `onread`), chunked framing is decoded in place, and body bytes are handed to the
 * consumer as views that are valid only during the callback: whatever it keeps, it copies.
 */

export interface ConnectionOptions {
  headers: Record<string, string>;
  /** Budget from connect until the response head has arrived. */
  connectTimeoutMs: number;
  /** Once the head is in: the longest silence tolerated before STREAM_STALLED. */
  watchdogMs: number;
  readBufferBytes?: number;
  /** Extra trusted CA certificate(s) for https hosts (private CDNs, proxies, tests). */
  tlsCa?: string | Buffer;
  /**
   * Short requests (HLS): ask for keep-alive, take an idle socket to the same origin if there is one, and hand
   * the socket back once a Content-Length body has ended cleanly. Long FLV streams leave this off.
   */
  keepAlive?: boolean;
}

type BodyListener = (body: Uint8Array) => void;

export class StreamConnection implements LinkTarget {
  head: ResponseHead = { status: 0, headers: {} };
  /** Body bytes received (chunked framing not counted). */
  bytesReceived = 0;
  private readonly link: Link;
  private readonly socket: net.Socket;
  /** A reused socket that the server closed before any byte of our response: try once more on a new one. */
  private stale = false;
  private sawBytes = false;
  private extraBytes = false;
  private headBytes: Buffer | null = Buffer.alloc(0);
  private framing: 'chunked' | 'length' | 'close' = 'close';
  private remaining = 0;
  private readonly decoder = new ChunkedDecoder();
  private pending: Buffer[] = [];
  private listener: BodyListener | null = null;
  private headWaiter: { resolve: () => void; reject: (e: Error) => void } | null = null;
  private bodyWaiter: { resolve: () => void; reject: (e: Error) => void } | null = null;
  private finished: { error: Error | null } | null = null;
  private stopped = false;
  private readonly headTimer: NodeJS.Timeout;

  private constructor(private readonly url: URL, private readonly options: ConnectionOptions, mayReuse: boolean) {
    const key = options.keepAlive ? linkKey(url, options.tlsCa) : '';
    const idle = options.keepAlive && mayReuse ? takeIdle(key) : null;
    this.link = idle ?? this.connect(key);
    this.link.target = this;
    this.socket = this.link.socket;
    if (idle) this.sendRequest();
    this.headTimer = setTimeout(
      () => this.fail(new BilibiliError(BiliErrorCode.StreamConnectTimeout, `No response headers from ${url.origin} within ${options.connectTimeoutMs} ms`)),
      options.connectTimeoutMs,
    );
  }

  private connect(key: string): Link {
    const { url, options } = this;
    // A plain Uint8Array: body views are cut from it on every read, and a Buffer's subarray costs about twice as much.
    const buffer = new Uint8Array(options.readBufferBytes ?? 64 * 1024);
    let link: Link | null = null;
    const onread = { buffer, callback: (n: number, buf: Uint8Array) => readInto(link!, buf, n) };
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const socket = url.protocol === 'https:'
      ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, ca: options.tlsCa, onread, lookup: cachedLookup } as tls.ConnectionOptions)
      : net.connect({ host, port, onread, lookup: cachedLookup } as net.NetConnectOpts);
    socket.setNoDelay(true);
    link = newLink(socket, key);
    socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => this.sendRequest());
    return link;
  }

  onSocketError(err: Error): void {
    if (this.isStale()) return this.fail(new BilibiliError(BiliErrorCode.StreamNetwork, `A kept-alive connection to ${this.url.origin} was closed: ${err.message}`));
    this.fail(this.headBytes
      ? new BilibiliError(BiliErrorCode.StreamNetwork, `Stream request to ${this.url.origin} failed: ${err.message}`, { cause: err })
      : new BilibiliError(BiliErrorCode.StreamAborted, `Stream from ${this.url.origin} broke off after ${this.bytesReceived} bytes: ${err.message}`, { cause: err }));
  }

  onWatchdog(): void {
    this.fail(new BilibiliError(BiliErrorCode.StreamStalled, `No stream data for ${this.options.watchdogMs} ms from ${this.url.origin}`));
  }

  /** Marks (and tells) a reused socket that ended before any byte of this response: the request never ran. */
  private isStale(): boolean {
    if (this.link.uses > 1 && !this.sawBytes && !this.finished) this.stale = true;
    return this.stale;
  }

  /** Connects and resolves once the response head has arrived (body bytes wait until `consume`). */
  static async open(url: URL, options: ConnectionOptions, signal?: AbortSignal): Promise<StreamConnection> {
    const reused = new StreamConnection(url, options, true);
    try {
      return await StreamConnection.awaitHead(reused, signal);
    } catch (err) {
      if (!reused.stale || signal?.aborted) throw err;
    }
    return StreamConnection.awaitHead(new StreamConnection(url, options, false), signal);
  }

  private static async awaitHead(c: StreamConnection, signal?: AbortSignal): Promise<StreamConnection> {
    const onAbort = (): void => c.fail(new BilibiliError(BiliErrorCode.StreamNetwork, 'Stream request cancelled'));
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await new Promise<void>((resolve, reject) => {
        c.headWaiter = { resolve, reject };
      });
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    return c;
  }

  /** Hands every body byte to `onBody` (views valid during the call only); resolves at the end of the body. */
  consume(onBody: BodyListener): Promise<void> {
    if (this.listener) return Promise.reject(new Error('A stream body can be consumed once'));
    this.listener = onBody;
    const done = new Promise<void>((resolve, reject) => {
      this.bodyWaiter = { resolve, reject };
    });
    const pending = this.pending;
    this.pending = [];
    try {
      for (const p of pending) this.feedBody(p, 0, p.length);
    } catch (err) {
      this.fail(err as Error);
    }
    if (this.finished) this.settleBody();
    else if (!this.stopped) {
      this.socket.setTimeout(this.options.watchdogMs);
      this.socket.resume();
    }
    return done;
  }

  /** Ends the connection; a running `consume` resolves without an error. */
  stop(): void {
    this.stopped = true;
    this.finish(null);
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  private sendRequest(): void {
    const lines = [`GET ${this.url.pathname}${this.url.search} HTTP/1.1`, `Host: ${this.url.host}`];
    for (const [k, v] of Object.entries(this.options.headers)) lines.push(`${k}: ${v}`);
    lines.push(this.options.keepAlive ? 'Connection: keep-alive' : 'Connection: close', '', '');
    this.socket.write(lines.join('\r\n'));
  }

  /** The onread callback: returning false pauses the socket until a consumer is attached. */
  onRead(buf: Uint8Array, n: number): boolean {
    if (this.finished) return false;
    this.sawBytes = true;
    try {
      if (this.headBytes) return this.onHeadBytes(buf, n);
      this.feedBody(buf, 0, n);
      return true;
    } catch (err) {
      this.fail(err as Error);
      return false;
    }
  }

  private onHeadBytes(buf: Uint8Array, n: number): boolean {
    const head = Buffer.concat([this.headBytes!, buf.subarray(0, n)]);
    const end = headEnd(head, head.length);
    if (end < 0) {
      if (head.length > MAX_HEAD_BYTES) throw new BilibiliError(BiliErrorCode.StreamNetwork, `Response head from ${this.url.origin} is over ${MAX_HEAD_BYTES} bytes`);
      this.headBytes = head;
      return true;
    }
    this.headBytes = null;
    clearTimeout(this.headTimer);
    this.head = parseHead(head.toString('latin1', 0, end - 4), this.url.origin);
    const te = (this.head.headers['transfer-encoding'] ?? '').toLowerCase();
    const length = this.head.headers['content-length'];
    if (te.includes('chunked')) this.framing = 'chunked';
    else if (length !== undefined && /^\d+$/.test(length)) {
      this.framing = 'length';
      this.remaining = Number(length);
    }
    if (end < head.length) this.pending.push(head.subarray(end));
    this.headWaiter?.resolve();
    this.headWaiter = null;
    return false; // wait for consume()
  }

  private feedBody(buf: Uint8Array, start: number, end: number): void {
    if (!this.listener) {
      this.pending.push(Buffer.from(buf.subarray(start, end)));
      return;
    }
    const listener = this.listener;
    const deliver = (body: Uint8Array): void => {
      this.bytesReceived += body.length;
      listener(body);
    };
    if (this.framing === 'chunked') {
      this.decoder.feed(buf, start, end, deliver);
      if (this.decoder.done) this.finish(null);
    } else if (this.framing === 'length') {
      const n = Math.min(this.remaining, end - start);
      if (n > 0) deliver(buf.subarray(start, start + n));
      this.remaining -= n;
      if (n < end - start) this.extraBytes = true;
      if (this.remaining === 0) this.finish(null);
    } else if (end > start) {
      deliver(buf.subarray(start, end));
    }
  }

  onEnd(): void {
    if (this.finished) return;
    if (this.isStale()) return this.fail(new BilibiliError(BiliErrorCode.StreamNetwork, `A kept-alive connection to ${this.url.origin} was closed`));
    if (this.headBytes) return this.fail(new BilibiliError(BiliErrorCode.StreamNetwork, `${this.url.origin} closed the connection before answering`));
    if (this.framing === 'close') return this.finish(null);
    this.fail(new BilibiliError(BiliErrorCode.StreamAborted, `Stream from ${this.url.origin} ended before its body did, after ${this.bytesReceived} bytes`));
  }

  private fail(error: Error): void {
    this.finish(this.stopped ? null : error);
  }

  private finish(error: Error | null): void {
    if (this.finished) return;
    this.finished = { error };
    clearTimeout(this.headTimer);
    this.socket.setTimeout(0);
    if (error === null && this.reusable()) release(this.link);
    else {
      this.link.target = null;
      this.socket.destroy();
    }
    if (this.headWaiter) {
      this.headWaiter.reject(error ?? new BilibiliError(BiliErrorCode.StreamNetwork, 'Stream request cancelled'));
      this.headWaiter = null;
    }
    if (this.listener) this.settleBody();
  }

  /** A clean end of a Content-Length body on a connection both sides keep: the socket can carry another request. */
  private reusable(): boolean {
    if (!this.options.keepAlive || this.stopped || this.headBytes || this.extraBytes) return false;
    if (this.framing !== 'length' || this.remaining !== 0 || this.pending.length > 0) return false;
    const connection = (this.head.headers.connection ?? '').toLowerCase();
    return this.head.minor === 1 ? !connection.includes('close') : connection.includes('keep-alive');
  }

  private settleBody(): void {
    const waiter = this.bodyWaiter;
    this.bodyWaiter = null;
    if (!waiter || !this.finished) return;
    if (this.finished.error) waiter.reject(this.finished.error);
    else waiter.resolve();
  }
}
