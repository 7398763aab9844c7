// GET /api/room and GET /api/room/{id} answered from the cached bytes, by the front door or straight from node:http:
// the two requests brec's WebUI and clients poll, hundreds a second. Anything else goes through the app as usual.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Recorder } from '../rooms/recorder.js';
import { guardVerdict } from './guard.js';
import { JSON_CONTENT_TYPE } from './json.js';
import { notModified, type RoomSnapshots } from './room-snapshot.js';
import type { FrontAnswer, FrontAnswerer } from './front-door/front-door.js';

/*
 * Why beside the app and not in it: through hono, its node adapter and the middleware chain, one of these GETs cost
 * several times the CPU of building the answer (which is cached). The fast path answers only what needs no decision
 * of its own: a plain GET of exactly these paths, no query, no Origin (the cross-origin policy has nothing to add to
 * such a request), a room that exists, and, where the open-access guard is on, a request the guard lets through
 * (its own verdict function). The server does not use it with Basic auth. With a query, an Origin, an unknown or
 * bad id, or anything to refuse, the request goes through the app, so each rule stays in one place and every error
 * answer is the app's.
 */
const ROOM_PATH = /^\/api\/room\/([1-9]\d{0,9})$/;
const MAX_ROOM_ID = 2 ** 31 - 1;

/** The two header reads the guard makes. */
export interface HeaderReader {
  has(name: string): boolean;
  get(name: string): string | null;
}

/** The guard's view of node's lower-cased header object (no Headers copy per request). */
function headerView(h: IncomingHttpHeaders): HeaderReader {
  return {
    has: (name) => h[name] !== undefined,
    get: (name) => {
      const v = h[name];
      return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
    },
  };
}

/** The front door's header map in the same shape. */
function mapView(h: ReadonlyMap<string, string>): HeaderReader {
  return { has: (name) => h.has(name), get: (name) => h.get(name) ?? null };
}

export interface FastRoomGetOptions {
  recorder: Recorder;
  snapshots: RoomSnapshots;
  /** The open-access guard is on (no --http-open-access); the fast path is never used with Basic auth. */
  guard: boolean;
}

/** The answer to a plain GET of `url`, or null when the app must answer it. */
function fastRoomAnswer(o: FastRoomGetOptions, url: string, h: HeaderReader, remoteAddress: string | undefined): FrontAnswer | null {
  if (!url.startsWith('/api/room') || h.has('origin')) return null;
  let answer: { bytes: Buffer; etag: string };
  if (url === '/api/room') {
    if (o.guard && guardVerdict(remoteAddress, h) !== null) return null;
    const whole = o.snapshots.whole(o.recorder.rooms);
    answer = { bytes: whole.body, etag: whole.etag };
  } else {
    const m = ROOM_PATH.exec(url);
    if (!m || Number(m[1]) > MAX_ROOM_ID) return null;
    if (o.guard && guardVerdict(remoteAddress, h) !== null) return null;
    const room = o.recorder.findRoom(Number(m[1]));
    if (!room) return null;
    answer = o.snapshots.room(room);
  }
  if (notModified(h.get('if-none-match') ?? undefined, answer.etag)) return { status: 304, etag: answer.etag };
  return { status: 200, etag: answer.etag, contentType: JSON_CONTENT_TYPE, body: answer.bytes };
}

/** For the front door (front-door/front-door.ts): the same answers over its own header map. */
export function fastRoomAnswers(o: FastRoomGetOptions): FrontAnswerer {
  return (get, remoteAddress) => fastRoomAnswer(o, get.url, mapView(get.headers), remoteAddress);
}

/** A request listener step: true when it answered the request, false to hand it to the app. */
export function fastRoomGets(o: FastRoomGetOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (req.method !== 'GET' || req.url === undefined) return false;
    const a = fastRoomAnswer(o, req.url, headerView(req.headers), req.socket.remoteAddress);
    if (a === null) return false;
    if (a.status === 304) {
      res.writeHead(304, { etag: a.etag });
      res.end();
    } else {
      res.writeHead(200, { 'content-type': a.contentType!, 'content-length': a.body!.length, etag: a.etag });
      res.end(a.body);
    }
    return true;
  };
}
