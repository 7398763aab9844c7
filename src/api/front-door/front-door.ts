// A plain-TCP front for the HTTP API: answers the polled room GETs itself and hands any other connection, bytes and all, to node:http.
import type { Server as HttpServer } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import type { ConnectionGate } from '../connection-limits.js';
import { type SimpleGet, scanSimpleGet } from './simple-get.js';
import { ScanBudget } from './scan-budget.js';

/*
 * Why: brec's WebUI and clients poll GET /api/room and /api/room/{id} hundreds of times a second, and answering them
 * through node:http's IncomingMessage/ServerResponse costs about as much CPU again as the bytes themselves (measured
 * in bench/api-scale.ts). A connection stays here only while every request on it is a plain GET that arrived whole
 * and that `answer` takes; at the first request that is not, the connection with every unread byte goes to the
 * node:http server (its documented `connection` event) for good, so each rule of the API stays in one place.
 */

export interface FrontAnswer {
  status: 200 | 304;
  etag: string;
  /** For 200 only. */
  contentType?: string;
  body?: Buffer;
}

/** The answer for a GET, or null to hand the connection to node:http. */
export type FrontAnswerer = (get: SimpleGet, remoteAddress: string | undefined) => FrontAnswer | null;

export interface FrontDoorOptions {
  /** Connection limits, checked first, before a byte is read (connection-limits.ts). */
  gate?: ConnectionGate;
  /**
   * The cheap part of the open-access guard, by remote address only: a client it refuses goes to node:http at once,
   * whose app answers it 412, and never costs the front door a scan.
   */
  admits?: (remoteAddress: string | undefined) => boolean;
  /** Bytes of heads the front door reads per client and second before handing that client's connections over. */
  scanBytesPerClientPerSecond?: number;
}

export interface FrontDoor {
  server: NetServer;
  /** Ends every connection, the front door's own and those handed over. */
  closeAllConnections(): void;
}

let dateSecond = -1;
let dateText = '';
/** The Date header, formatted once a second as node:http does. */
function httpDate(): string {
  const s = Math.floor(Date.now() / 1000);
  if (s !== dateSecond) {
    dateSecond = s;
    dateText = new Date(s * 1000).toUTCString();
  }
  return dateText;
}

function responseHead(a: FrontAnswer, keepAliveS: number): string {
  const tail = `etag: ${a.etag}\r\nDate: ${httpDate()}\r\nConnection: keep-alive\r\nKeep-Alive: timeout=${keepAliveS}\r\n\r\n`;
  return a.status === 304
    ? `HTTP/1.1 304 Not Modified\r\n${tail}`
    : `HTTP/1.1 200 OK\r\ncontent-type: ${a.contentType}\r\ncontent-length: ${a.body!.length}\r\n${tail}`;
}

/** Whole 200 responses (head and body in one buffer, one write), by body, rebuilt when the Date second turns. */
const whole = new WeakMap<Buffer, { date: string; etag: string; bytes: Buffer }>();

/*
 * Bodies above this go out as head and body in one writev instead: copying a 5000-room list (5.6 MB) into a new
 * buffer every second would cost more than the second write saves; a 50-room list (74 KB) is joined.
 */
const JOIN_LIMIT = 1024 * 1024;

/** Writes the answer: one buffer for small answers, head then body (corked into one writev) for large ones. */
function send(socket: Socket, a: FrontAnswer, keepAliveS: number): void {
  if (a.status === 304) {
    socket.write(responseHead(a, keepAliveS), 'latin1');
    return;
  }
  const body = a.body!;
  if (body.length > JOIN_LIMIT) {
    socket.cork();
    socket.write(responseHead(a, keepAliveS), 'latin1');
    socket.write(body);
    socket.uncork();
    return;
  }
  const date = httpDate();
  const hit = whole.get(body);
  if (hit && hit.date === date && hit.etag === a.etag) {
    socket.write(hit.bytes);
    return;
  }
  const bytes = Buffer.concat([Buffer.from(responseHead(a, keepAliveS), 'latin1'), body]);
  whole.set(body, { date, etag: a.etag, bytes });
  socket.write(bytes);
}

export function createFrontDoor(inner: HttpServer, answer: FrontAnswerer, options: FrontDoorOptions = {}): FrontDoor {
  const own = new Set<Socket>();
  const budget = new ScanBudget(options.scanBytesPerClientPerSecond);
  // node:http starts its connection tracking (headers/request timeouts, closeAllConnections) when it listens; the
  // inner server never listens itself, so it is told, and the connections handed to it are tracked as usual.
  inner.emit('listening');

  const server = new NetServer({ noDelay: true }, (socket) => {
    // Limits first, then the guard's address check: neither reads a byte.
    if (options.gate && !options.gate.admit(socket, true)) return;
    if (options.admits && !options.admits(socket.remoteAddress)) {
      inner.emit('connection', socket);
      return;
    }
    own.add(socket);
    const keepAliveMs = inner.keepAliveTimeout;
    const onTimeout = (): void => void socket.destroy();
    const onError = (): void => void socket.destroy();
    const onDrain = (): void => void socket.resume();
    const handOver = (rest: Buffer): void => {
      own.delete(socket);
      socket.off('data', onData).off('timeout', onTimeout).off('error', onError).off('drain', onDrain);
      socket.setTimeout(0);
      socket.pause();
      socket.unshift(rest);
      inner.emit('connection', socket);
      socket.resume();
    };
    const onData = (chunk: Buffer): void => {
      // Each head is read once and is at most 8 KiB (simple-get.ts); a client past its bytes for this second goes
      // to node:http, whose parser (llhttp) then reads its heads.
      if (!budget.take(socket.remoteAddress, chunk.length)) return handOver(chunk);
      const text = chunk.toString('latin1');
      let at = 0;
      let corked = false;
      while (at < text.length) {
        const get = scanSimpleGet(text, at);
        const a = get === 'other' ? null : answer(get, socket.remoteAddress);
        if (a === null || get === 'other') break;
        // Pipelined requests: their answers go out in one writev.
        if (!corked && get.end < text.length) {
          socket.cork();
          corked = true;
        }
        send(socket, a, Math.floor(keepAliveMs / 1000));
        at = get.end;
      }
      if (corked) socket.uncork();
      if (at < text.length) return handOver(chunk.subarray(at));
      // A client that sends faster than it reads: stop reading until what it asked for has gone out.
      if (socket.writableNeedDrain) {
        socket.pause();
        socket.once('drain', onDrain);
      }
    };
    socket.setTimeout(keepAliveMs);
    socket.on('timeout', onTimeout).on('error', onError).on('data', onData);
    socket.on('close', () => own.delete(socket));
  });

  return {
    server,
    closeAllConnections: () => {
      for (const s of own) s.destroy();
      own.clear();
      inner.closeAllConnections();
      // Stops node:http's connection-checking timer (started by the 'listening' above).
      inner.close();
    },
  };
}
