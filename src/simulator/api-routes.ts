// The live API endpoints of the simulator, with armed API faults (412, -352, malformed answers, delays).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { danmuInfoData, playInfoData, roomInfoData, roomInitData, type SimAddress } from './api-responses.js';
import { type ApiFault, takeFault } from './faults.js';
import { clientGone, envelope, sendJson, sendText } from './http-util.js';
import { capturedAnswer, type CapturedEndpoint } from './captured.js';
import { pushLog, type RequestRecord, type RoomCounters, type SimRoom } from './room.js';
import { specialPlayInfo, specialRoomInit } from './special-rooms.js';
import { fingerSpiBody } from './guest-identity.js';
import { refuse, RISK_352_COMPACT, risk352WithVoucher, type StrictMode, type Unenforced } from './strict.js';
import { handleMaster, MASTER_PATH } from './hls/master-route.js';
import { sessionRetired, type PassportState } from './passport/passport-state.js';

type Data = (room: SimRoom, q: URLSearchParams, addr: SimAddress, req?: IncomingMessage) => Record<string, unknown>;

interface Endpoint {
  param: string;
  counter: Exclude<keyof RoomCounters['apiHits'], 'total'>;
  /** room_init and getInfoByRoom accept short ids; play info and danmaku info need the real id. */
  acceptsShortId: boolean;
  legacy: boolean;
  notFound: [number, string];
  data: Data;
  /** The name under which POST /_sim/rooms/{id}/captured replaces this endpoint's answer. */
  captured: CapturedEndpoint;
}

const ENDPOINTS: Record<string, Endpoint> = {
  '/room/v1/Room/room_init': { param: 'id', counter: 'roomInit', acceptsShortId: true, legacy: true, notFound: [60004, '直播间不存在'], data: (r) => specialRoomInit(r, roomInitData(r)), captured: 'roomInit' },
  // The first call of bilibili-live-ws' getRoomid and tiny-bilibili-ws (blive-message-listener); no capture of its
  // answer: served in room_init's shape, whose data.room_id both read.
  '/room/v1/Room/mobileRoomInit': { param: 'id', counter: 'roomInit', acceptsShortId: true, legacy: true, notFound: [60004, '直播间不存在'], data: (r) => specialRoomInit(r, roomInitData(r)), captured: 'roomInit' },
  '/xlive/web-room/v1/index/getInfoByRoom': { param: 'room_id', counter: 'getInfoByRoom', acceptsShortId: true, legacy: false, notFound: [19002000, '获取初始化数据失败'], data: (r, _q, a) => roomInfoData(r, a), captured: 'getInfoByRoom' },
  '/xlive/web-room/v2/index/getRoomPlayInfo': { param: 'room_id', counter: 'getRoomPlayInfo', acceptsShortId: false, legacy: false, notFound: [19002000, '获取初始化数据失败'], data: (r, q, a, req) => specialPlayInfo(r, playInfoData(r, a, q, req !== undefined && loggedIn(req))), captured: 'getRoomPlayInfo' },
  '/xlive/web-room/v1/index/getDanmuInfo': { param: 'id', counter: 'getDanmuInfo', acceptsShortId: false, legacy: false, notFound: [1, '房间不存在'], data: (r, _q, a, req) => danmuInfoData(r, a, req !== undefined && loggedIn(req)), captured: 'getDanmuInfo' },
};

export interface ApiContext {
  findRoom(id: number, acceptsShortId: boolean): SimRoom | undefined;
  address(): SimAddress;
  /** API calls that named no known room. */
  unknownRoomHits: number;
  /** Calls of the nav endpoint (WBI keys). */
  navHits: number;
  /** Calls of /x/frontend/finger/spi (guest buvid3/buvid4). */
  fingerHits: number;
  /** Live API calls refused with -352 (bad or missing signature, no buvid3) where the strictness table says so. */
  refusedHits: { signature: number; buvid3: number };
  /** Calls accepted although they lacked something no source shows refused, keyed `<path> <requirement>`. */
  unenforcedHits: Record<string, number>;
  /** The latest refused calls (path, query, headers), for tests and the control API's stats. */
  refusedLog: RequestRecord[];
  /** evidence (default: strict.ts STRICTNESS), all (`--strict-all`) or lenient (`--lenient`). */
  strictMode: StrictMode;
  /** Web logins (nav answers by the cookie's session). */
  passport: PassportState;
}

export function isApiPath(path: string): boolean {
  return path in ENDPOINTS || path === NAV_PATH || path === FINGER_PATH || path === MASTER_PATH;
}



const FINGER_PATH = '/x/frontend/finger/spi';

const NAV_PATH = '/x/web-interface/nav';
/** The WBI keys the simulator publishes (blrec's test keys = SIM_WBI_KEYS); checked unless the simulator is lenient. */
const WBI_IMG = 'https://i0.hdslb.com/bfs/wbi/7cd084941338484aae1ad9425b84077c.png';
const WBI_SUB = 'https://i0.hdslb.com/bfs/wbi/4932caff0ff746eab6f01bf08b70ac45.png';

export async function handleApi(ctx: ApiContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  if (url.pathname === NAV_PATH) {
    ctx.navHits++;
    const wbi_img = { img_url: WBI_IMG, sub_url: WBI_SUB };
    const session = ctx.passport.sessionOf(req.headers.cookie);
    if (session) {
      const a = ctx.passport.account(session.uid);
      return sendJson(res, 200, { code: 0, message: '0', ttl: 1, data: { isLogin: true, mid: a.uid, uname: a.uname, face: a.face, wbi_img } });
    }
    // Guests get -101 with the keys, as on the real service.
    return sendJson(res, 200, { code: -101, message: '账号未登录', ttl: 1, data: { isLogin: false, wbi_img } });
  }
  if (url.pathname === FINGER_PATH) {
    ctx.fingerHits++;
    return sendJson(res, 200, fingerSpiBody());
  }
  // The gateway refuses before the room is looked up: an unsigned call never learns whether the room exists.
  const refusal = refuse(url.pathname, req, url.searchParams, ctx.strictMode, (u) => countUnenforced(ctx, u));
  if (refusal) {
    ctx.refusedHits[refusal.reason]++;
    pushLog(ctx.refusedLog, { at: Date.now(), path: url.pathname, query: url.search, headers: req.headers });
    return sendJson(res, 200, refusal.body);
  }
  if (url.pathname === MASTER_PATH) {
    // A captured playlist armed for the room wins; otherwise the generated one (hls/master-route.ts).
    const room = ctx.findRoom(Number(url.searchParams.get('cid') ?? NaN), false);
    const text = room && capturedAnswer(room, 'masterPlaylist', ctx.address());
    // Without a captured one, the room's own master playlist (hls/master-route.ts).
    if (typeof text !== 'string') return handleMaster((id) => ctx.findRoom(id, false), ctx.address(), req, res, url);
    room!.counters.apiHits.total++;
    room!.counters.apiHits.masterPlaylist++;
    pushLog(room!.apiLog, { at: Date.now(), path: url.pathname, query: url.search, headers: req.headers });
    return sendText(res, 200, text, 'application/vnd.apple.mpegurl');
  }
  const ep = ENDPOINTS[url.pathname]!;
  const raw = url.searchParams.get(ep.param) ?? '';
  if (!/^\d+$/.test(raw)) return sendJson(res, 200, envelope(1002002, '参数错误', null, ep.legacy));
  const room = ctx.findRoom(Number(raw), ep.acceptsShortId);
  if (!room) {
    ctx.unknownRoomHits++;
    return sendJson(res, 200, envelope(ep.notFound[0], ep.notFound[1], null, ep.legacy));
  }
  room.counters.apiHits.total++;
  room.counters.apiHits[ep.counter]++;
  pushLog(room.apiLog, { at: Date.now(), path: url.pathname, query: url.search, headers: req.headers });
  const fault = takeFault(room.apiFaults, Date.now(), (f) => !f.path || url.pathname.includes(f.path));
  if (fault?.kind === 'api-delay') {
    await new Promise((r) => setTimeout(r, fault.delayMs));
    if (clientGone(res)) return;
  } else if (fault) {
    return sendFault(res, fault, ep, ep.data(room, url.searchParams, ctx.address()));
  }
  const replay = capturedAnswer(room, ep.captured, ctx.address(), loggedIn(req));
  if (replay !== undefined) return sendJson(res, 200, replay);
  sendJson(res, 200, envelope(0, ep.legacy ? 'ok' : '0', ep.data(room, url.searchParams, ctx.address(), req), ep.legacy));
}

/** A login cookie: a non-empty SESSDATA (what a guest lacks) that no logout or confirmed refresh retired. */
export function loggedIn(req: IncomingMessage): boolean {
  const m = /(?:^|;\s*)SESSDATA=([^;\s]+)/.exec(req.headers.cookie ?? '');
  return m !== null && !sessionRetired(m[1]!);
}

/** Counts (and so logs, in `GET /_sim/stats`) what a call lacked that the simulator accepts for want of a source. */
export function countUnenforced(ctx: { unenforcedHits: Record<string, number> }, u: Unenforced): void {
  for (const r of u.missing) {
    const key = `${u.path} ${r}`;
    ctx.unenforcedHits[key] = (ctx.unenforcedHits[key] ?? 0) + 1;
  }
}

function sendFault(res: ServerResponse, fault: Exclude<ApiFault, { kind: 'api-delay' }>, ep: Endpoint, data: Record<string, unknown>): void {
  switch (fault.kind) {
    case 'api412': {
      const body = { code: -412, message: '请求被拦截', ttl: 1, data: null };
      return sendJson(res, fault.inBody ? 200 : 412, body, { Server: 'openresty' });
    }
    case 'api352':
      return sendJson(res, 200, fault.compact ? { ...RISK_352_COMPACT } : risk352WithVoucher());
    case 'api-malformed':
      switch (fault.variant) {
        case 'json': {
          const text = JSON.stringify(envelope(0, '0', data, ep.legacy));
          return sendText(res, 200, text.slice(0, Math.floor(text.length / 2)), 'application/json; charset=utf-8');
        }
        case 'html':
          return sendText(res, 200, '<html><head><title>502 Bad Gateway</title></head><body>502 Bad Gateway</body></html>', 'text/html');
        case 'http-500':
          return sendText(res, 500, 'Internal Server Error');
        case 'no-envelope':
          return sendJson(res, 200, [1, 2, 3]);
        case 'nested':
          return sendText(res, 200, nestedAnswer(), 'application/json; charset=utf-8');
        case 'missing-field':
          return sendJson(res, 200, envelope(0, '0', damage(data, 'missing'), ep.legacy));
        case 'wrong-type':
          return sendJson(res, 200, envelope(0, '0', damage(data, 'wrong'), ep.legacy));
      }
  }
}

/** Issue 46: a 3.8 MB answer under the 4 MiB cap whose data nests ~1.9 million arrays (built once). */
let nested: string | null = null;
function nestedAnswer(): string {
  const depth = 1_900_000;
  nested ??= `{"code":0,"message":"0","ttl":1,"data":${'['.repeat(depth)}${']'.repeat(depth)}}`;
  return nested;
}

/** Removes or retypes the field each endpoint's clients depend on most. */
function damage(data: Record<string, unknown>, how: 'missing' | 'wrong'): Record<string, unknown> {
  const d = structuredClone(data);
  const bad = how === 'missing' ? undefined : { oops: true };
  const set = (o: Record<string, unknown>, k: string): void => {
    if (bad === undefined) delete o[k];
    else o[k] = bad;
  };
  if ('room_info' in d) set(d.room_info as Record<string, unknown>, 'room_id');
  else if ('token' in d) set(d, 'token');
  else if (d.playurl_info) set((d.playurl_info as Record<string, Record<string, unknown>>).playurl!, 'stream');
  else set(d, 'room_id');
  return d;
}
