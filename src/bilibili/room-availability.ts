// Why the service will not let this client record a live room (paid, password, guard-only, DRM, risk control, not found).
import { BiliErrorCode } from './errors.js';
import type { Json } from './json-read.js';

export const UNAVAILABLE_REASONS = ['paid', 'password', 'guardOnly', 'drmOnly', 'riskControl', 'notFound'] as const;
export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

/** Reasons read from getRoomPlayInfo: a room in one of them is re-checked with that one call per interval. */
export const PLAY_INFO_REASONS: ReadonlySet<UnavailableReason> = new Set(['paid', 'password', 'guardOnly', 'drmOnly']);

/** all_special_types value of a paid (DRM) live (bilibili-2026.md "Special rooms"; biliLive-tools PR #485). */
export const PAID_SPECIAL_TYPE = 203;

/** Errors that, while they last, mean the service's risk control refuses us (412, -412, -352, or the pause they set). */
export const RISK_ERROR_CODES: ReadonlySet<string> = new Set([
  BiliErrorCode.ApiHttp412, BiliErrorCode.ApiRisk412, BiliErrorCode.ApiRisk352, BiliErrorCode.ApiPaused,
]);

const isObj = (v: Json): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v);

function codecEntries(data: Record<string, Json>): Record<string, Json>[] {
  const info = data.playurl_info;
  if (!isObj(info) || !isObj(info.playurl) || !Array.isArray(info.playurl.stream)) return [];
  const out: Record<string, Json>[] = [];
  for (const s of info.playurl.stream) {
    if (!isObj(s) || !Array.isArray(s.format)) continue;
    for (const f of s.format) if (isObj(f) && Array.isArray(f.codec)) for (const c of f.codec) if (isObj(c)) out.push(c);
  }
  return out;
}

/**
 * The reason a getRoomPlayInfo `data` keeps a guest from recording, or null. Facts (docs/bilibili-2026.md):
 * `encrypted` without `pwd_verified` is a password room; `all_special_types` containing 203 is a paid live;
 * every codec entry `drm: true` is DRM only; a live room whose playurl lists no stream is guard-only.
 */
export function playInfoUnavailable(data: Json): UnavailableReason | null {
  if (!isObj(data)) return null;
  if (data.encrypted === true && data.pwd_verified !== true) return 'password';
  if (Array.isArray(data.all_special_types) && data.all_special_types.includes(PAID_SPECIAL_TYPE)) return 'paid';
  const codecs = codecEntries(data);
  if (codecs.length > 0 && codecs.every((c) => c.drm === true)) return 'drmOnly';
  const live = data.live_status === 1;
  if (live && isObj(data.playurl_info) && codecs.length === 0) return 'guardOnly';
  return null;
}

/** The reason an API error names by itself (room gone, room locked by a password), or null. */
export function errorUnavailable(code: string | undefined): UnavailableReason | null {
  if (code === BiliErrorCode.ApiRoomNotFound) return 'notFound';
  if (code === BiliErrorCode.ApiRoomEncrypted) return 'password';
  return null;
}
