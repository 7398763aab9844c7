// The simulator's 2026 gatekeeping: WBI signatures and the buvid3 cookie, refused with the service's two -352 bodies.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { mixinKey, wbiEncode, type WbiKeys } from '../bilibili/wbi.js';

/** The keys nav publishes (bilibili-API-collect's documented pair, also in the nav capture). */
export const SIM_WBI_KEYS: Readonly<WbiKeys> = Object.freeze({ imgKey: '7cd084941338484aae1ad9425b84077c', subKey: '4932caff0ff746eab6f01bf08b70ac45' });

/** Endpoints the web client signs and the service refuses unsigned (brec#663 getInfoByRoom 2025-04, Danmuji#113 getDanmuInfo 2025-05). */
const SIGNED = new Set(['/xlive/web-room/v1/index/getInfoByRoom', '/xlive/web-room/v1/index/getDanmuInfo']);
/** Signed by clients that sign it; a signature that is present must be right. */
const SIGNATURE_CHECKED_IF_PRESENT = new Set(['/xlive/web-room/v2/index/getRoomPlayInfo', '/xlive/play-gateway/master/url']);

/** The compact -352 (no data), as answered to unsigned calls. */
export const RISK_352_COMPACT = Object.freeze({ code: -352, message: '-352', ttl: 1 });

/** The -352 carrying a v_voucher (bilibili-API-collect v_voucher.md), as answered to calls without a buvid3. */
export function risk352WithVoucher(): Record<string, unknown> {
  return { code: -352, message: '风控校验失败', ttl: 1, data: { v_voucher: `voucher_${randomUUID()}` } };
}

/** Whether `w_rid` is the MD5 of the other parameters (sorted, WBI-encoded) plus the mixin key. */
export function validSignature(q: URLSearchParams, keys: WbiKeys = SIM_WBI_KEYS): boolean {
  const wRid = q.get('w_rid');
  if (!wRid || !q.get('wts')) return false;
  const entries = [...q.entries()].filter(([k]) => k !== 'w_rid').sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = entries.map(([k, v]) => `${k}=${wbiEncode(v)}`).join('&');
  return createHash('md5').update(query + mixinKey(keys)).digest('hex') === wRid;
}

function hasBuvid3(req: IncomingMessage): boolean {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === 'buvid3' && part.slice(eq + 1).trim() !== '') return true;
  }
  return false;
}

export type Refusal = { reason: 'signature' | 'buvid3'; body: Record<string, unknown> };

/** Why a live API call is refused in 2026 mode, or null when it passes. */
export function refuse(path: string, req: IncomingMessage, q: URLSearchParams): Refusal | null {
  if (!hasBuvid3(req)) return { reason: 'buvid3', body: risk352WithVoucher() };
  const signed = q.has('w_rid');
  if (SIGNED.has(path) || (signed && SIGNATURE_CHECKED_IF_PRESENT.has(path))) {
    if (!validSignature(q)) return { reason: 'signature', body: { ...RISK_352_COMPACT } };
  }
  return null;
}
