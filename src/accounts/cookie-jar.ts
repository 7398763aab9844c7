// A login's cookie as the service sets it: Set-Cookie headers folded into one Cookie header, and the fields liverec reads.
import { parseCookie } from '../bilibili/identity.js';

/** The cookies a web login carries (QR poll and cookie refresh set these). */
export const LOGIN_COOKIES = ['SESSDATA', 'bili_jct', 'DedeUserID', 'DedeUserID__ckMd5', 'sid'] as const;

export interface SetCookie {
  name: string;
  value: string;
  /** Epoch ms of `Expires` (or now + Max-Age); null for a session cookie. */
  expiresAt: number | null;
}

/** One Set-Cookie header; null when it has no name=value pair. */
export function parseSetCookie(header: string, now = Date.now()): SetCookie | null {
  const [pair, ...attrs] = header.split(';');
  const eq = pair?.indexOf('=') ?? -1;
  if (!pair || eq <= 0) return null;
  let expiresAt: number | null = null;
  for (const a of attrs) {
    const i = a.indexOf('=');
    const k = (i < 0 ? a : a.slice(0, i)).trim().toLowerCase();
    const v = i < 0 ? '' : a.slice(i + 1).trim();
    if (k === 'max-age' && /^-?\d+$/.test(v)) expiresAt = now + Number(v) * 1000;
    else if (k === 'expires' && expiresAt === null) {
      const t = Date.parse(v);
      if (Number.isFinite(t)) expiresAt = t;
    }
  }
  return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), expiresAt };
}

/** The Cookie header after these Set-Cookie headers: later values replace earlier ones, other cookies are kept. */
export function applySetCookies(cookie: string, headers: readonly string[]): { cookie: string; expiresAt: number | null } {
  const jar = parseCookie(cookie);
  let expiresAt: number | null = null;
  for (const h of headers) {
    const c = parseSetCookie(h);
    if (!c) continue;
    jar.set(c.name, c.value);
    if (c.name === 'SESSDATA') expiresAt = c.expiresAt;
  }
  return { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), expiresAt };
}

/** The account's uid (DedeUserID) and CSRF token (bili_jct) of a cookie; 0 / '' when absent. */
export function loginFields(cookie: string): { uid: number; csrf: string; sessdata: string } {
  const jar = parseCookie(cookie);
  const uid = Number(jar.get('DedeUserID') ?? '');
  return { uid: Number.isSafeInteger(uid) && uid > 0 ? uid : 0, csrf: jar.get('bili_jct') ?? '', sessdata: jar.get('SESSDATA') ?? '' };
}
