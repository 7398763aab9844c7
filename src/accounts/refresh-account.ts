// One account's check: is it still logged in, does the service want it refreshed, and the web client's refresh if so.
import { LiverecError } from '../errors.js';
import type { StoredAccount } from './account-store.js';
import { loginFields } from './cookie-jar.js';
import type { PassportClient } from './passport-client.js';

/**
 * Changes `a` in place: state, name/face from nav, and on a refresh the cookie, refresh token and dates. Throws a
 * LiverecError (ACCOUNT_LOGGED_OUT, ACCOUNT_REFRESH_FAILED, ACCOUNT_NETWORK, …) when it cannot finish.
 */
export async function refreshAccount(client: PassportClient, a: StoredAccount, refusal: string | null = null): Promise<'fresh' | 'refreshed'> {
  const { csrf } = loginFields(a.cookie);
  const info = await client.cookieInfo(a.cookie, csrf);
  if (info.loggedOut) throw new LiverecError('ACCOUNT_LOGGED_OUT', 'the service answers that this login is logged out (-101)');
  const nav = await client.nav(a.cookie);
  if (nav.isLogin) Object.assign(a, { name: nav.name || a.name, face: nav.face || a.face });
  a.lastChecked = Date.now();
  if (!info.refresh) {
    Object.assign(a, { state: 'valid', lastError: null });
    return 'fresh';
  }
  // A login this process may check but not refresh (`refusal` says why): asked to refresh, it is reported.
  if (refusal) throw new LiverecError('ACCOUNT_REFRESH_FAILED', refusal);
  if (!a.refreshToken) throw new LiverecError('ACCOUNT_REFRESH_FAILED', 'the service asks for a refresh, and this login has no refresh token (log in by QR code)');
  const refreshCsrf = await client.refreshCsrf(a.cookie, info.timestamp);
  const oldToken = a.refreshToken;
  const next = await client.refreshCookie(a.cookie, csrf, refreshCsrf, oldToken);
  // The new login is kept before it is confirmed: a failed confirm leaves a working login, never none.
  Object.assign(a, { cookie: next.cookie, refreshToken: next.refreshToken || oldToken, validUntil: next.expiresAt ?? a.validUntil, lastRefreshed: Date.now() });
  await client.confirmRefresh(next.cookie, loginFields(next.cookie).csrf, oldToken);
  Object.assign(a, { state: 'valid', lastError: null });
  return 'refreshed';
}
