// Stream URLs carry `expires` (unix s, about an hour ahead: biliup, biliLive-tools); a connection is renewed before it passes.

/** Renew this long before `expires`. */
export const RENEW_BEFORE_MS = 60_000;
/** Never sooner than this after a connection opened (a URL that is nearly expired on arrival). */
export const MIN_RENEW_DELAY_MS = 5_000;

/** The URL's `expires` as epoch ms, or null when it has none (or not a plausible one). */
export function expiresAt(url: string): number | null {
  let v: string | null = null;
  try {
    v = new URL(url).searchParams.get('expires');
  } catch {
    return null;
  }
  if (v === null || !/^\d{9,11}$/.test(v)) return null;
  return Number(v) * 1000;
}

/**
 * How long from `now` until the connection should be renewed with a freshly resolved URL; null: never (no
 * `expires`, or one already past although the host served it: the clocks disagree and a renewal gains nothing).
 */
export function renewDelayMs(url: string, now = Date.now()): number | null {
  const at = expiresAt(url);
  if (at === null || at <= now) return null;
  return Math.max(MIN_RENEW_DELAY_MS, at - now - RENEW_BEFORE_MS);
}
