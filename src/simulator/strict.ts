// The simulator's 2026 gatekeeping: exactly the refusals a public source shows, per endpoint (docs/bilibili-2026.md).
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { mixinKey, wbiEncode, type WbiKeys } from '../bilibili/wbi.js';

/** The keys nav publishes (bilibili-API-collect's documented pair, also in the nav capture). */
export const SIM_WBI_KEYS: Readonly<WbiKeys> = Object.freeze({ imgKey: '7cd084941338484aae1ad9425b84077c', subKey: '4932caff0ff746eab6f01bf08b70ac45' });

/** A requirement a caller may meet or not. */
export type Requirement = 'wbi' | 'webLocation' | 'buvid3' | 'refererUa';
export const REQUIREMENTS: readonly Requirement[] = ['wbi', 'webLocation', 'buvid3', 'refererUa'];

export interface EndpointRule {
  /** Requirements a source shows the service refusing without; each names its source. */
  enforced: Partial<Record<Requirement, string>>;
}

/**
 * The refusal table. Only what a source shows is enforced; docs/bilibili-2026.md "Strictness per endpoint" holds the
 * same table with the same sources (test/simulator/strictness.test.ts checks every row both ways).
 */
export const STRICTNESS: Readonly<Record<string, EndpointRule>> = Object.freeze({
  '/xlive/web-room/v1/index/getInfoByRoom': { enforced: { wbi: 'brec#663 (unsigned answers -352 since 2025-04-02; brec 2.16 signs it)' } },
  '/xlive/web-room/v1/index/getDanmuInfo': {
    enforced: {
      wbi: 'Bilibili_Danmuji#113 (signing needed since 2025-05-26/27)',
      buvid3: 'bilibili-API-collect#1295 and biliLive-tools d3284080 (buvid3 cookie needed since 2025-06-27); brec#691',
    },
  },
  '/room/v1/Room/room_init': { enforced: {} },
  '/room/v1/Room/mobileRoomInit': { enforced: {} },
  '/xlive/web-room/v2/index/getRoomPlayInfo': { enforced: {} },
  '/xlive/play-gateway/master/url': { enforced: {} },
  '/room/v1/Room/get_status_info_by_uids': { enforced: {} },
  '/xlive/web-room/v1/index/getRoomBaseInfo': { enforced: {} },
});

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

/** Which requirements a call fails (a signature that is present but wrong fails `wbi`). */
export function missing(req: IncomingMessage, q: URLSearchParams): Requirement[] {
  const out: Requirement[] = [];
  if (!validSignature(q)) out.push('wbi');
  if (!q.get('web_location')) out.push('webLocation');
  if (!hasBuvid3(req)) out.push('buvid3');
  if (!req.headers.referer || !req.headers['user-agent']) out.push('refererUa');
  return out;
}

export type Refusal = { reason: 'signature' | 'buvid3'; body: Record<string, unknown> };

/** How strict: `evidence` (default) enforces STRICTNESS; `all` is the pre-2026-11 mode (`--strict-all`). */
export type StrictMode = 'evidence' | 'all' | 'lenient';

/** A call accepted although it lacked something (no source shows a refusal for it): counted, for tests and stats. */
export interface Unenforced {
  path: string;
  missing: Requirement[];
}

/**
 * Why a live API call is refused, or null when it passes. `all` refuses every call without a buvid3 and checks the
 * signature of getInfoByRoom/getDanmuInfo always and of play info/master playlist when present (experiments only).
 */
export function refuse(path: string, req: IncomingMessage, q: URLSearchParams, mode: StrictMode = 'evidence', onUnenforced?: (u: Unenforced) => void): Refusal | null {
  if (mode === 'lenient') return null;
  if (mode === 'all') {
    if (!hasBuvid3(req)) return { reason: 'buvid3', body: risk352WithVoucher() };
    const signedAlways = path === '/xlive/web-room/v1/index/getInfoByRoom' || path === '/xlive/web-room/v1/index/getDanmuInfo';
    const signedIfPresent = path === '/xlive/web-room/v2/index/getRoomPlayInfo' || path === '/xlive/play-gateway/master/url';
    if ((signedAlways || (signedIfPresent && q.has('w_rid'))) && !validSignature(q)) return { reason: 'signature', body: { ...RISK_352_COMPACT } };
    return null;
  }
  const rule = STRICTNESS[path];
  const lacking = missing(req, q);
  // buvid3 is checked before the signature, as the gateway's v_voucher body comes first in brec#691's reports.
  if (rule?.enforced.buvid3 && lacking.includes('buvid3')) return { reason: 'buvid3', body: risk352WithVoucher() };
  if (rule?.enforced.wbi && lacking.includes('wbi')) return { reason: 'signature', body: { ...RISK_352_COMPACT } };
  const unenforced = lacking.filter((r) => !rule?.enforced[r]);
  if (unenforced.length > 0) onUnenforced?.({ path, missing: unenforced });
  return null;
}
