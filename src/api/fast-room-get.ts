// GET /api/room and GET /api/room/{id} answered straight from node:http with the cached bytes: the two requests
// brec's WebUI and clients poll, hundreds a second. Anything else goes through the app as usual.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Recorder } from '../rooms/recorder.js';
import { guardVerdict } from './guard.js';
import { JSON_CONTENT_TYPE } from './json.js';
import { notModified, type RoomSnapshots } from './room-snapshot.js';

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

/** The two header reads the guard makes, over node's lower-cased header object (no Headers copy per request). */
function headerView(h: IncomingHttpHeaders): { has(name: string): boolean; get(name: string): string | null } {
  return {
    has: (name) => h[name] !== undefined,
    get: (name) => {
      const v = h[name];
      return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
    },
  };
}

export interface FastRoomGetOptions {
  recorder: Recorder;
  snapshots: RoomSnapshots;
  /** The open-access guard is on (no --http-open-access); the fast path is never used with Basic auth. */
  guard: boolean;
}

/** A request listener step: true when it answered the request, false to hand it to the app. */
export function fastRoomGets(o: FastRoomGetOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const url = req.url;
    if (req.method !== 'GET' || url === undefined || !url.startsWith('/api/room')) return false;
    const h = req.headers;
    if (h.origin !== undefined) return false;
    let answer: { bytes: Buffer; etag: string };
    if (url === '/api/room') {
      if (o.guard && guardVerdict(req.socket.remoteAddress, headerView(h)) !== null) return false;
      const whole = o.snapshots.whole(o.recorder.rooms);
      answer = { bytes: whole.bytes, etag: whole.page.etag };
    } else {
      const m = ROOM_PATH.exec(url);
      if (!m || Number(m[1]) > MAX_ROOM_ID) return false;
      if (o.guard && guardVerdict(req.socket.remoteAddress, headerView(h)) !== null) return false;
      const room = o.recorder.findRoom(Number(m[1]));
      if (!room) return false;
      answer = o.snapshots.room(room);
    }
    if (notModified(h['if-none-match'], answer.etag)) {
      res.writeHead(304, { etag: answer.etag });
      res.end();
    } else {
      res.writeHead(200, { 'content-type': JSON_CONTENT_TYPE, 'content-length': answer.bytes.length, etag: answer.etag });
      res.end(answer.bytes);
    }
    return true;
  };
}
