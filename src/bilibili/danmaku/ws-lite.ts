// A minimal RFC 6455 WebSocket client (binary/text messages, fragments, ping/pong, close) on node:http upgrade.
import { createHash, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import { applyMask, frame, readFrameHeader } from './ws-frames.js';

// Why not the `ws` package here: every room worker holds one danmaku socket, and importing `ws` costs a
// worker about +5 MB RSS on Node 20 (measured: empty worker 8.5 MB, with ws 13.8 MB; this file ~+0.3 MB),
// against a budget of ~10 MB per room. The danmaku protocol needs only this client subset: no extensions,
// no server. The simulator (one process for all rooms) uses `ws` for its server side.

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
/** RFC 6455 §5.5: control frames carry at most 125 bytes and are never fragmented. */
const MAX_CONTROL_PAYLOAD = 125;
/** Pongs are skipped while this much is still unsent (a server that pings and never reads cannot pile them up). */
const PONG_BACKLOG = 64 * 1024;
/** A server that has not read this much of what we sent is gone: the connection is dropped. */
const MAX_SEND_BACKLOG = 1024 * 1024;

export interface WsConnectOptions {
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** Largest accepted message, fragments together (default 4 MiB; a real danmaku message is a few KiB). */
  maxPayload?: number;
  /** Extra trusted CA certificate(s) for wss hosts (private networks, tests). */
  ca?: string | Buffer;
}

/**
 * Events: 'message' (data: Buffer, binary: boolean), 'close' (code: number, reason: string) exactly once,
 * 'error' (err: Error) before a 'close' caused by a protocol or socket error.
 */
export class WsLite extends EventEmitter {
  private chunks: Buffer[] = [];
  private pendingBytes = 0;
  private needed = 2;
  private fragments: Buffer[] | null = null;
  private fragmentBytes = 0;
  private fragmentBinary = false;
  private closeSent = false;
  private finished = false;

  private constructor(private readonly socket: Duplex, head: Buffer, private readonly maxPayload: number) {
    super();
    // Node removed its own error listener at the upgrade: an unhandled socket error would crash the thread.
    socket.on('error', (err: Error) => this.fail(err, 1006));
    // Reading starts a macrotask later, so listeners attached after `await connect()` see every message;
    // until then the socket buffers, and the handshake's leftover bytes stay first in line.
    setImmediate(() => {
      if (head.length > 0) this.onData(head);
      socket.on('data', (d: Buffer) => this.onData(d));
      socket.on('close', () => this.finish(1006, 'connection closed'));
      if (socket.destroyed) this.finish(1006, 'connection closed');
    });
  }

  static connect(url: string, options: WsConnectOptions = {}): Promise<WsLite> {
    return new Promise((resolve, reject) => {
      const target = new URL(url);
      if (target.protocol !== 'ws:' && target.protocol !== 'wss:') return reject(new Error(`Not a WebSocket URL: ${url}`));
      const key = randomBytes(16).toString('base64');
      const mod = target.protocol === 'wss:' ? https : http;
      target.protocol = target.protocol === 'wss:' ? 'https:' : 'http:';
      const headers = { ...options.headers, Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': key };
      const req = mod.request(target, { headers, agent: false, ...(options.ca ? { ca: options.ca } : {}) });
      const timer = setTimeout(() => {
        req.destroy();
        reject(new Error(`WebSocket handshake with ${target.host} timed out after ${options.timeoutMs} ms`));
      }, options.timeoutMs ?? 10_000);
      req.on('upgrade', (res, socket, head) => {
        clearTimeout(timer);
        const expected = createHash('sha1').update(key + GUID).digest('base64');
        if (res.headers['sec-websocket-accept'] !== expected) {
          socket.destroy();
          return reject(new Error('WebSocket handshake: bad Sec-WebSocket-Accept'));
        }
        resolve(new WsLite(socket, head, options.maxPayload ?? 4 * 1024 * 1024));
      });
      req.on('response', (res) => {
        clearTimeout(timer);
        res.resume();
        reject(new Error(`WebSocket handshake with ${target.host}: HTTP ${res.statusCode} instead of 101`));
      });
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      req.end();
    });
  }

  get isOpen(): boolean {
    return !this.finished && !this.closeSent;
  }

  /** Sends one binary message; false when the socket is closing or closed. */
  send(data: Buffer): boolean {
    if (!this.isOpen) return false;
    if (this.socket.writableLength > MAX_SEND_BACKLOG) {
      this.fail(new Error(`WebSocket peer does not read (${this.socket.writableLength} bytes unsent)`), 1006);
      return false;
    }
    this.socket.write(frame(0x2, data));
    return true;
  }

  /** Starts the closing handshake; the socket is destroyed if the server does not answer within 2 s. */
  close(code = 1000): void {
    if (this.finished || this.closeSent) return;
    this.closeSent = true;
    const body = Buffer.allocUnsafe(2);
    body.writeUInt16BE(code);
    this.socket.write(frame(0x8, body));
    setTimeout(() => this.socket.destroy(), 2000).unref();
  }

  /** Drops the connection at once. */
  terminate(): void {
    this.socket.destroy();
    this.finish(1006, 'terminated');
  }

  private finish(code: number, reason: string): void {
    if (this.finished) return;
    this.finished = true;
    this.emit('close', code, reason);
  }

  private fail(err: Error, code: number): void {
    if (this.finished) return;
    if (this.listenerCount('error') > 0) this.emit('error', err);
    this.socket.destroy();
    this.finish(code, err.message);
  }

  private onData(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.pendingBytes += chunk.length;
    while (!this.finished && this.pendingBytes >= this.needed) {
      const buf = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.pendingBytes);
      const used = this.parseFrame(buf);
      if (used === 0) {
        this.chunks = [buf];
        return;
      }
      const rest = buf.subarray(used);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.pendingBytes = rest.length;
      this.needed = 2;
    }
  }

  /** Parses one frame at the start of `buf`; returns the bytes used, or 0 (and sets `needed`) if incomplete. */
  private parseFrame(buf: Buffer): number {
    const h = readFrameHeader(buf);
    if (typeof h === 'number') return this.need(h);
    if (typeof h === 'string') return this.protocolError(h, 1009);
    if (h.length > this.maxPayload) return this.protocolError(`frame of ${h.length} bytes exceeds the limit`, 1009);
    if (h.opcode >= 0x8 && (h.length > MAX_CONTROL_PAYLOAD || !h.fin)) return this.protocolError(`control frame of ${h.length} bytes or fragmented`, 1002);
    if (h.opcode === 0x0 && this.fragments && this.fragmentBytes + h.length > this.maxPayload) {
      return this.protocolError(`fragmented message exceeds ${this.maxPayload} bytes`, 1009);
    }
    const end = h.payloadAt + h.length;
    if (buf.length < end) return this.need(end);
    let payload = buf.subarray(h.payloadAt, end);
    if (h.mask) payload = applyMask(payload, h.mask);
    this.onFrame(h.fin, h.opcode, payload);
    return end;
  }

  private need(n: number): number {
    this.needed = n;
    return 0;
  }

  private protocolError(message: string, code: number): number {
    this.fail(new Error(`WebSocket protocol error: ${message}`), code);
    return 0;
  }

  private onFrame(fin: boolean, opcode: number, payload: Buffer): void {
    switch (opcode) {
      case 0x0:
        if (!this.fragments) return void this.protocolError('continuation without a start', 1002);
        this.fragments.push(payload);
        this.fragmentBytes += payload.length;
        if (fin) {
          const whole = Buffer.concat(this.fragments);
          this.fragments = null;
          this.fragmentBytes = 0;
          this.emit('message', whole, this.fragmentBinary);
        }
        return;
      case 0x1:
      case 0x2:
        if (this.fragments) return void this.protocolError('new message inside a fragmented one', 1002);
        if (fin) this.emit('message', payload, opcode === 0x2);
        else {
          this.fragments = [payload];
          this.fragmentBytes = payload.length;
          this.fragmentBinary = opcode === 0x2;
        }
        return;
      case 0x8: {
        const code = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
        if (!this.closeSent) {
          this.closeSent = true;
          this.socket.write(frame(0x8, payload.subarray(0, 2)));
        }
        this.socket.end();
        this.finish(code, payload.subarray(2).toString('utf8'));
        return;
      }
      case 0x9:
        if (!this.closeSent && this.socket.writableLength < PONG_BACKLOG) this.socket.write(frame(0xa, payload));
        return;
      case 0xa:
        return;
      default:
        this.protocolError(`unknown opcode ${opcode}`, 1002);
    }
  }
}
