// Request headers the service expects (API and media hosts), and the cookie fields the danmaku auth needs.
import type { ClientOptions } from './client-options.js';

/**
 * The one User-Agent of liverec's requests (API, media hosts, danmaku upgrade): a current desktop Chrome, as the
 * newest peers send (Chrome 132–147 in blivedm, rust-srec, biliup, brec 2.17/2.18; issue 47). Chrome 118 was brec 2.15's.
 */
export const DEFAULT_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

export const LIVE_ORIGIN = 'https://live.bilibili.com';
export const LIVE_REFERER = 'https://live.bilibili.com/';

type HeaderOptions = Pick<ClientOptions, 'userAgent' | 'cookie'>;

export function apiHeaders(o: HeaderOptions): Record<string, string> {
  const h: Record<string, string> = {
    Accept: 'application/json, text/javascript, */*; q=0.01',
    'Accept-Language': 'zh-CN',
    Origin: LIVE_ORIGIN,
    Referer: LIVE_REFERER,
    'User-Agent': o.userAgent,
  };
  if (o.cookie.trim() !== '') h.Cookie = o.cookie.trim();
  return h;
}

/** Media requests carry no cookie (brec): the CDN does not need it and it must not leak to third-party hosts. */
export function streamHeaders(o: Pick<ClientOptions, 'userAgent'>): Record<string, string> {
  return { Accept: '*/*', Origin: LIVE_ORIGIN, Referer: LIVE_REFERER, 'User-Agent': o.userAgent };
}

/**
 * Headers of the danmaku WebSocket upgrade. `cookie` (the user's cookie with the buvid3 in use) goes with it, as
 * rust-srec, biliup and blivedm send it; '' sends none.
 */
export function danmakuHeaders(o: Pick<ClientOptions, 'userAgent'>, cookie = ''): Record<string, string> {
  const h: Record<string, string> = {
    Origin: LIVE_ORIGIN,
    Referer: LIVE_REFERER,
    'User-Agent': o.userAgent,
    'Accept-Language': 'zh-CN',
    Accept: '*/*',
    Pragma: 'no-cache',
    'Cache-Control': 'no-cache',
  };
  if (cookie.trim() !== '') h.Cookie = cookie.trim();
  return h;
}

/** The user's cookie with `buvid3` added when it has none (the guest identity's). */
export function withBuvid3(cookie: string, buvid: string): string {
  if (!buvid || cookieIdentity(cookie).buvid) return cookie.trim();
  const base = cookie.trim().replace(/;\s*$/, '');
  return base === '' ? `buvid3=${buvid}` : `${base}; buvid3=${buvid}`;
}

export interface CookieIdentity {
  /** DedeUserID, or 0 for a guest. */
  uid: number;
  /** buvid3, when present. */
  buvid: string | undefined;
}

export function cookieIdentity(cookie: string): CookieIdentity {
  let uid = 0;
  let buvid: string | undefined;
  for (const part of cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === 'DedeUserID' && /^\d+$/.test(value)) uid = Number(value);
    else if (name === 'buvid3' && value !== '') buvid = value;
  }
  return { uid, buvid };
}
