// Idle keep-alive sockets per origin for short requests (HLS playlists and segments); FLV streams never come here.
import { createHash } from 'node:crypto';
import type net from 'node:net';

/*
 * Why: an HLS room makes one or two requests a second. A TCP connection's life (Node's socket objects, handshake
 * and teardown) cost about 0.3 ms of CPU across both ends on the benchmark VM, a fifth of liverec's CPU at 20
 * fMP4 rooms (docs/performance.md, tenth pass); against a real CDN every request would also pay a TLS handshake.
 */

/** What owns a link while a request runs on it: its reads and its socket's events go there. */
export interface LinkTarget {
  onRead(buf: Uint8Array, n: number): boolean;
  onSocketError(err: Error): void;
  onEnd(): void;
  onWatchdog(): void;
}

/** A socket (with its read buffer, fixed at connect) and the request it carries now, if any. */
export interface Link {
  readonly socket: net.Socket;
  readonly key: string;
  target: LinkTarget | null;
  /** Requests carried so far; more than 1 means the socket was reused. */
  uses: number;
  idleTimer: NodeJS.Timeout | null;
}

/** Below common servers' keep-alive timeouts (Node 5 s, nginx 75 s): the server should rarely close first. */
export const IDLE_MS = 4000;
const MAX_IDLE_PER_ORIGIN = 4;
const idle = new Map<string, Link[]>();

/** Links to one origin with the same trust settings share a key. */
export function linkKey(url: URL, tlsCa: string | Buffer | undefined): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const ca = tlsCa === undefined ? '' : `|${createHash('sha1').update(tlsCa).digest('hex')}`;
  return `${url.protocol}//${url.hostname}:${port}${ca}`;
}

/** Wires a fresh socket's events to whichever request holds the link (or closes it while idle). */
export function newLink(socket: net.Socket, key: string): Link {
  const link: Link = { socket, key, target: null, uses: 1, idleTimer: null };
  socket.on('error', (err) => (link.target ? link.target.onSocketError(err) : drop(link)));
  socket.on('end', () => (link.target ? link.target.onEnd() : drop(link)));
  socket.on('close', () => (link.target ? link.target.onEnd() : drop(link)));
  socket.on('timeout', () => link.target?.onWatchdog());
  return link;
}

/** The onread callback of a link's socket: bytes while idle mean the server broke the exchange. */
export function readInto(link: Link, buf: Uint8Array, n: number): boolean {
  if (link.target) return link.target.onRead(buf, n);
  drop(link);
  return false;
}

/** An idle, still open link to `key`, taken out of the pool; null when there is none. */
export function takeIdle(key: string): Link | null {
  const list = idle.get(key);
  while (list && list.length > 0) {
    const link = list.pop()!;
    if (list.length === 0) idle.delete(key);
    if (link.idleTimer) clearTimeout(link.idleTimer);
    link.idleTimer = null;
    if (!link.socket.destroyed && link.socket.readyState === 'open') {
      link.socket.ref();
      link.uses++;
      return link;
    }
    link.socket.destroy();
  }
  return null;
}

/** Puts a link whose response ended cleanly back for the next request to the same origin. */
export function release(link: Link): void {
  link.target = null;
  const list = idle.get(link.key) ?? [];
  if (list.length >= MAX_IDLE_PER_ORIGIN || link.socket.destroyed) {
    link.socket.destroy();
    return;
  }
  idle.set(link.key, list);
  list.push(link);
  // An idle socket must not keep the process alive, and must read, so that a close from the server is seen.
  link.socket.unref();
  link.socket.resume();
  link.idleTimer = setTimeout(() => drop(link), IDLE_MS);
  link.idleTimer.unref();
}

/** Closes a link and forgets it. */
export function drop(link: Link): void {
  const list = idle.get(link.key);
  const i = list ? list.indexOf(link) : -1;
  if (i >= 0) list!.splice(i, 1);
  if (list && list.length === 0) idle.delete(link.key);
  if (link.idleTimer) clearTimeout(link.idleTimer);
  link.idleTimer = null;
  link.target = null;
  link.socket.destroy();
}

/** Idle links per key (tests, diagnostics). */
export function idleCount(key?: string): number {
  if (key !== undefined) return idle.get(key)?.length ?? 0;
  let n = 0;
  for (const list of idle.values()) n += list.length;
  return n;
}
