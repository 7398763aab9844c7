// brec's global Cookie setting as an account of the pool (refreshed only when the cookie string carries a refresh token).
import { parseCookie } from '../bilibili/identity.js';
import type { StoredAccount } from './account-store.js';
import { loginFields } from './cookie-jar.js';

/** The imported account of a Cookie value; null when it is no login (no SESSDATA or no DedeUserID). */
export function importConfigCookie(cookie: string, previous: StoredAccount | null): StoredAccount | null {
  const value = cookie.trim();
  const { uid, sessdata } = loginFields(value);
  if (!sessdata || !uid) return null;
  const jar = parseCookie(value);
  // Some tools keep the web client's refresh token (localStorage ac_time_value) beside the cookies.
  const refreshToken = jar.get('ac_time_value') ?? jar.get('refresh_token') ?? '';
  const same = previous?.uid === uid ? previous : null;
  return {
    uid, name: same?.name ?? '', face: same?.face ?? '', cookie: value, refreshToken, source: 'config', state: 'valid',
    addedAt: same?.addedAt ?? Date.now(), validUntil: null, lastRefreshed: same?.lastRefreshed ?? null, lastChecked: null, lastError: null,
  };
}
