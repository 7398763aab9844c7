// The live API client: the endpoints the recorder needs, WBI-signed with a guest identity, every call through the shared limiter.
import { type ApiLimiter, getProcessLimiter } from './api-limiter.js';
import type { ApiPriority } from './api-priority.js';
import {
  type DanmuInfo, type PlayInfo, type RoomInfo, type RoomInit, readDanmuInfo, readPlayInfo, readRoomInfo, readRoomInit,
} from './api-models.js';
import { type ClientOptions, clientOptions } from './client-options.js';
import { BiliErrorCode, BilibiliError } from './errors.js';
import { apiHeaders } from './headers.js';
import { httpGetText } from './http-get.js';
import { type Json, num, obj, optStr, str } from './json-read.js';
import { overJsonBudget } from './json-budget.js';
import { cookieHasBuvid3, type GuestIdentity, guestIdentityCache, mergeCookie, parseCookie } from './identity.js';
import { BASE_INFO_PATH, BATCH_STATUS_PATH, type BatchRoomStatus, batchQuery, readBaseInfo, readBatchStatus, type RoomBaseInfo } from './batch-status.js';
import { fetchShared, markSharedStale, peekShared } from './shared-credentials.js';
import { untilAborted } from './until-aborted.js';
import { playInfoUnavailable, type UnavailableReason } from './room-availability.js';
import { keyFromUrl, signQuery, WbiKeyCache, type WbiKeys } from './wbi.js';

const ROOM_NOT_FOUND_CODES = new Set([60004, 19002000]);
const ROOM_ENCRYPTED_CODE = 19002005;

/** Parameters of getRoomPlayInfo as brec sends them (codec 2, AV1, added as the web player asks since 2025-12); only `qn` and `room_id` vary. */
const PLAY_INFO_PARAMS = { protocol: '0,1', format: '0,1,2', codec: '0,1,2', platform: 'web', ptype: 8, dolby: 5, panorama: 1 };

type Params = Record<string, string | number>;

/** The web client sends this with every signed live call (rust-srec, biliup; see docs/bilibili-2026.md). */
const WEB_LOCATION = '444.8';
const RISK_CODES: ReadonlySet<string> = new Set([BiliErrorCode.ApiRisk352, BiliErrorCode.ApiRisk412, BiliErrorCode.ApiHttp412]);

/** The WBI keys rotate daily; a thread takes another thread's keys while they are younger than this. */
const WBI_MAX_AGE_MS = 6 * 3600_000;

/** WBI keys per main-API host, shared by all clients of this thread (and through shared-credentials.ts by every thread). */
const wbiCaches = new Map<string, WbiKeyCache>();

export class BilibiliApiClient {
  readonly options: ClientOptions;
  /** Calls that reached the service (for stats and tests). */
  requests = 0;

  /**
   * `priority`: where this client's calls queue in the budget when it is short (src/bilibili/api-priority.ts); a room
   * holds one client per purpose (withPriority), so a danmaku token never waits ahead of a stream's start.
   */
  constructor(options: Partial<ClientOptions> = {}, private readonly limiter: ApiLimiter = getProcessLimiter(), readonly priority: ApiPriority = 'detect') {
    this.options = clientOptions(options);
  }

  /** The same client (options, limiter) whose calls queue at `priority`. */
  withPriority(priority: ApiPriority): BilibiliApiClient {
    return priority === this.priority ? this : new BilibiliApiClient(this.options, this.limiter, priority);
  }

  /** getInfoByRoom; accepts a short id and answers with the real one. */
  async getRoomInfo(roomId: number, signal?: AbortSignal): Promise<RoomInfo> {
    return readRoomInfo(await this.call('/xlive/web-room/v1/index/getInfoByRoom', { room_id: roomId }, true, signal));
  }

  /** room_init: resolves a short or real id to the real id. */
  async roomInit(id: number, signal?: AbortSignal): Promise<RoomInit> {
    return readRoomInit(await this.call('/room/v1/Room/room_init', { id }, false, signal));
  }

  /** get_status_info_by_uids: the live status of many rooms (by anchor uid) in one unsigned call through the limiter. */
  async getStatusByUids(uids: readonly number[], signal?: AbortSignal): Promise<Map<number, BatchRoomStatus>> {
    this.limiter.checkPaused();
    const cookie = await this.apiCookie(signal);
    return readBatchStatus(await this.getData(this.options.liveApiHost, `${BATCH_STATUS_PATH}?${batchQuery(uids)}`, cookie, signal));
  }

  /** getRoomBaseInfo: uid, real and short id and live flag of many rooms by room id, in one unsigned call. */
  async getRoomBaseInfo(roomIds: readonly number[], signal?: AbortSignal): Promise<RoomBaseInfo[]> {
    this.limiter.checkPaused();
    const cookie = await this.apiCookie(signal);
    const query = `req_biz=web_room_componet&${roomIds.map((id) => `room_ids=${id}`).join('&')}`;
    return readBaseInfo(await this.getData(this.options.liveApiHost, `${BASE_INFO_PATH}?${query}`, cookie, signal));
  }

  /** getRoomPlayInfo v2 for the real room id at quality `qn`; ROOM_UNAVAILABLE for a room a guest cannot record. */
  async getPlayInfo(roomId: number, qn: number, signal?: AbortSignal): Promise<PlayInfo> {
    const status = await this.getRoomStatus(roomId, qn, signal);
    if (status.unavailableReason) {
      throw new BilibiliError(BiliErrorCode.RoomUnavailable, `room ${roomId} cannot be recorded: ${status.unavailableReason}`, { unavailableReason: status.unavailableReason });
    }
    return status.play;
  }

  /** getRoomPlayInfo with the reason a guest cannot record the room (null when it can): one call, nothing thrown for it. */
  async getRoomStatus(roomId: number, qn = 10000, signal?: AbortSignal): Promise<{ play: PlayInfo; unavailableReason: UnavailableReason | null; raw: Json }> {
    const raw = await this.call('/xlive/web-room/v2/index/getRoomPlayInfo', { room_id: roomId, ...PLAY_INFO_PARAMS, qn }, true, signal);
    return { play: readPlayInfo(raw), unavailableReason: playInfoUnavailable(raw), raw };
  }

  /**
   * The play-gateway master playlist of a room (HLS fMP4 variants of every quality and codec on several hosts) as
   * text; the parameters are those of the `master_url` the service hands out beside fMP4 entries. A JSON answer
   * (room offline or unknown, risk control) is thrown as the coded error it carries.
   */
  /**
   * The play-gateway master playlist. `mid` given (the streamer's uid): biliup's anonymous_origin query, which adds
   * `drm_type=0&codec=0,1`; without it the `master_url` play info hands out (`mid=0`).
   */
  async getMasterPlaylist(roomId: number, qn: number, signal?: AbortSignal, o: { mid?: number } = {}): Promise<string> {
    this.limiter.checkPaused();
    // The guest identity's buvid3 goes with it like with every live API call; master_url carries no WBI signature.
    const headers = apiHeaders({ userAgent: this.options.userAgent, cookie: await this.apiCookie(signal) });
    const grant = await this.limiter.acquire(signal, this.priority);
    const path = '/xlive/play-gateway/master/url';
    this.requests++;
    const query = o.mid !== undefined
      ? `cid=${roomId}&mid=${o.mid}&pt=web&p2p_type=-1&net=0&free_type=0&build=0&feature=2&qn=${qn}&drm_type=0&codec=0,1`
      : `cid=${roomId}&mid=0&pt=web&p2p_type=-1&net=0&free_type=0&build=0&feature=2&qn=${qn}`;
    const res = await httpGetText(`${this.options.liveApiHost}${path}?${query}`, headers, this.options.apiTimeoutMs, signal).finally(() => this.limiter.done(grant));
    if (res.status === 412) this.limiter.answered(false);
    if (res.status !== 200) throw new BilibiliError(BiliErrorCode.ApiHttpStatus, `${path}: HTTP ${res.status}`, { httpStatus: res.status });
    if (res.body.trimStart().startsWith('#EXTM3U')) {
      this.limiter.answered(true);
      return res.body;
    }
    let code = -1;
    let message = res.body.slice(0, 60);
    try {
      if (overJsonBudget(res.body) !== null) throw new Error('over the parse budget');
      const env = JSON.parse(res.body) as { code?: unknown; message?: unknown };
      code = typeof env.code === 'number' ? env.code : -1;
      message = typeof env.message === 'string' ? env.message : '';
    } catch { /* neither a playlist nor JSON */ }
    if (code === -352 || code === -412) {
      this.limiter.answered(false);
      this.limiter.pause(this.options.riskPauseMs);
    }
    const errCode = code === -352 ? BiliErrorCode.ApiRisk352 : code === -412 ? BiliErrorCode.ApiRisk412 : BiliErrorCode.ApiError;
    throw new BilibiliError(errCode, `${path}: not a playlist (code ${code} ${message})`, { serviceCode: code, httpStatus: 200 });
  }

  /** getDanmuInfo for the real room id: the auth token and the danmaku hosts. */
  async getDanmuInfo(roomId: number, signal?: AbortSignal): Promise<DanmuInfo> {
    return readDanmuInfo(await this.call('/xlive/web-room/v1/index/getDanmuInfo', { id: roomId, type: 0 }, true, signal));
  }

  /** The buvid3 for the danmaku auth: the user's cookie's, else the guest identity's ('' when there is none). */
  async buvid(signal?: AbortSignal): Promise<string> {
    const own = parseCookie(this.options.cookie).get('buvid3') ?? '';
    if (own !== '') return own;
    return (await this.guestIdentity(signal))?.buvid3 ?? '';
  }

  /** The Cookie header of live API calls: the user's cookie, completed with the guest buvid3/buvid4. */
  async apiCookie(signal?: AbortSignal): Promise<string> {
    return mergeCookie(this.options.cookie, await this.guestIdentity(signal));
  }

  private async guestIdentity(signal?: AbortSignal): Promise<GuestIdentity | null> {
    if (!this.options.guestIdentity || cookieHasBuvid3(this.options.cookie)) return null;
    const host = this.options.mainApiHost;
    const key = `guest ${host}`;
    return untilAborted(guestIdentityCache(host).get(() => fetchShared(key, Infinity, () => this.fetchGuestIdentity()), () => peekShared<GuestIdentity>(key, Infinity)), signal);
  }

  /** `/x/frontend/finger/spi`: `data.b_3` is the buvid3, `data.b_4` the buvid4. */
  private async fetchGuestIdentity(): Promise<GuestIdentity> {
    const data = obj(await this.getData(this.options.mainApiHost, '/x/frontend/finger/spi', this.options.cookie), 'data');
    return { buvid3: str(data.b_3, 'data.b_3'), buvid4: optStr(data.b_4, 'data.b_4', '') };
  }

  private async call(path: string, params: Params, sign: boolean, signal?: AbortSignal): Promise<Json> {
    // Checked before the keys and identity: a refresh attempted during a pause would fail and be held off a minute.
    this.limiter.checkPaused();
    let query: string;
    const host = this.options.mainApiHost;
    const keys = sign && this.options.wbiSign ? await this.wbiKeys(host, signal) : null;
    if (keys) {
      query = signQuery({ ...params, web_location: WEB_LOCATION }, keys);
    } else {
      // Signing off, or nav has not answered yet: unsigned (a wrong signature is a certain -352; unsigned may pass).
      query = Object.entries(params).map(([k, v]) => `${k}=${v}`).join('&');
    }
    const cookie = await this.apiCookie(signal);
    try {
      return await this.getData(this.options.liveApiHost, `${path}?${query}`, cookie, signal);
    } catch (err) {
      if (err instanceof BilibiliError && RISK_CODES.has(err.code)) {
        // The pause is already set; the first call after it signs with fresh keys and a fresh guest identity.
        this.wbiCache().markStale();
        guestIdentityCache(this.options.mainApiHost).markStale();
        markSharedStale(`wbi ${this.options.mainApiHost}`);
        markSharedStale(`guest ${this.options.mainApiHost}`);
      }
      throw err;
    }
  }

  /**
   * The keys of `host`. The fetch is the whole process's (other threads wait for it): it runs without this caller's
   * signal, so a caller that gives up (a closed danmaku client, a bounded room_init) stops waiting but never cancels a
   * nav already sent, which would make the next thread send another.
   */
  private wbiKeys(host: string, signal?: AbortSignal): Promise<WbiKeys | null> {
    const key = `wbi ${host}`;
    return untilAborted(this.wbiCache().get(() => fetchShared(key, WBI_MAX_AGE_MS, () => this.fetchWbiKeys()), () => peekShared<WbiKeys>(key, WBI_MAX_AGE_MS)), signal);
  }

  private wbiCache(): WbiKeyCache {
    let cache = wbiCaches.get(this.options.mainApiHost);
    if (!cache) wbiCaches.set(this.options.mainApiHost, (cache = new WbiKeyCache()));
    return cache;
  }

  /** `/x/web-interface/nav` answers guests with code -101 but still carries the keys. */
  private async fetchWbiKeys(): Promise<WbiKeys> {
    const data = obj(await this.getData(this.options.mainApiHost, '/x/web-interface/nav', this.options.cookie, undefined, [-101]), 'data');
    const img = obj(data.wbi_img, 'data.wbi_img');
    return { imgKey: keyFromUrl(str(img.img_url, 'data.wbi_img.img_url')), subKey: keyFromUrl(str(img.sub_url, 'data.wbi_img.sub_url')) };
  }

  /** One GET through the limiter; returns the envelope's `data` or throws a coded error. */
  private async getData(base: string, pathAndQuery: string, cookie: string, signal?: AbortSignal, okCodes: number[] = []): Promise<Json> {
    const grant = await this.limiter.acquire(signal, this.priority);
    const q = pathAndQuery.indexOf('?');
    const path = q < 0 ? pathAndQuery : pathAndQuery.slice(0, q);
    this.requests++;
    // The call counts in the budget's minute until a minute after its answer (the service counted it on arrival, before).
    const res = await httpGetText(base + pathAndQuery, apiHeaders({ userAgent: this.options.userAgent, cookie }), this.options.apiTimeoutMs, signal)
      .finally(() => this.limiter.done(grant));
    if (res.status === 412) {
      this.limiter.answered(false);
      this.limiter.pause(this.options.riskPauseMs);
      throw new BilibiliError(BiliErrorCode.ApiHttp412, `${path}: HTTP 412 (blocked by risk control); all API calls pause`, { httpStatus: 412 });
    }
    if (res.status !== 200) {
      throw new BilibiliError(BiliErrorCode.ApiHttpStatus, `${path}: HTTP ${res.status}`, { httpStatus: res.status });
    }
    let body: Json;
    // Checked before JSON.parse: what a parse builds is bounded by the budget, not by the 4 MiB answer cap.
    const over = overJsonBudget(res.body);
    if (over !== null) throw new BilibiliError(BiliErrorCode.ApiBadResponse, `${path}: answer refused before parsing: ${over}`);
    try {
      body = JSON.parse(res.body);
    } catch {
      const head = res.body.slice(0, 60).replace(/\s+/g, ' ');
      throw new BilibiliError(BiliErrorCode.ApiBadResponse, `${path}: answer is not JSON (${res.contentType || 'no content type'}): ${head}`);
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new BilibiliError(BiliErrorCode.ApiBadResponse, `${path}: answer is not a JSON object`);
    }
    const env = body as Record<string, Json>;
    const code = num(env.code, 'code');
    const voucherOnly = code === 0 && isVoucherOnly(env.data);
    const risk = code === -412 || code === -352 || voucherOnly;
    // The learned rate grows with every answer that is not risk control (an error about the room is still one).
    this.limiter.answered(!risk);
    if ((code === 0 && !voucherOnly) || okCodes.includes(code)) return env.data;
    const message = typeof env.message === 'string' ? env.message : typeof env.msg === 'string' ? env.msg : '';
    const details = { serviceCode: code, httpStatus: 200 };
    if (risk) {
      this.limiter.pause(this.options.riskPauseMs);
      const errCode = code === -412 ? BiliErrorCode.ApiRisk412 : BiliErrorCode.ApiRisk352;
      const what = voucherOnly ? 'code 0 with only data.v_voucher (an unsigned or badly signed call)' : `code ${code} ${message}`;
      throw new BilibiliError(errCode, `${path}: ${what}; all API calls pause`, details);
    }
    if (ROOM_NOT_FOUND_CODES.has(code)) throw new BilibiliError(BiliErrorCode.ApiRoomNotFound, `${path}: room not found (code ${code} ${message})`, details);
    if (code === ROOM_ENCRYPTED_CODE) throw new BilibiliError(BiliErrorCode.ApiRoomEncrypted, `${path}: room is encrypted (code ${code})`, details);
    throw new BilibiliError(BiliErrorCode.ApiError, `${path}: code ${code} ${message}`, details);
  }
}

/** A signed endpoint called without a valid signature may answer code 0 whose data is only `{v_voucher}` (bilibili-API-collect wbi.md). */
function isVoucherOnly(data: Json): boolean {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return false;
  const keys = Object.keys(data);
  return keys.length === 1 && keys[0] === 'v_voucher';
}
