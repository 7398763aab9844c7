// One webhook POST attempt with ky; retries are driven by the outbox lane, not by ky (see below).
import ky, { TimeoutError } from 'ky';
import { VERSION } from '../version.js';

/*
 * Why ky's own retry is off here (retry: 0) although stack.md §4 has a working POST-retry recipe:
 * - every attempt must be journaled BEFORE it starts so that a crash mid-attempt still counts it and a
 *   restart never makes a 4th; ky's hooks fire around retries but give no durable point before the
 *   first attempt of a resumed delivery, and a resumed delivery starts at attempt 2 or 3;
 * - a resumed delivery must honour the remaining backoff measured from the journaled attempt time,
 *   which ky's delay(retryCount) cannot express;
 * - while ky waits between retries its promise stays pending, so the per-URL concurrency slot would be
 *   held through 1 s + 2 s of sleeping and a failing receiver would starve the other events to it.
 * So the lane schedules attempts (1 s, then 2 s) and ky does what it is good at: one POST with a
 * per-attempt timeout and uniform errors.
 */

export const USER_AGENT = `liverec/${VERSION}`;

export type AttemptOutcome =
  | { ok: true; status: number }
  | { ok: false; status?: number; code: string; error: string; aborted?: boolean };

function describe(err: unknown, timeoutMs: number): { code: string; error: string; aborted?: boolean } {
  if (err instanceof TimeoutError) return { code: 'WEBHOOK_TIMEOUT', error: `timed out after ${timeoutMs} ms` };
  if (err instanceof Error && err.name === 'AbortError') return { code: 'WEBHOOK_ABORTED', error: 'aborted (outbox closing)', aborted: true };
  // undici reports network failures as TypeError('fetch failed') with the socket error as the cause.
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e instanceof Error; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return { code: 'WEBHOOK_NETWORK', error: `${code}: ${e.message}` };
    e = e.cause;
  }
  return { code: 'WEBHOOK_NETWORK', error: err instanceof Error ? err.message : String(err) };
}

/** POSTs the body once. Never throws: every failure becomes an outcome with a stable code. */
export async function sendOnce(url: string, body: string, timeoutMs: number, signal: AbortSignal): Promise<AttemptOutcome> {
  try {
    const response = await ky.post(url, {
      body,
      headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT },
      retry: 0,
      timeout: timeoutMs,
      throwHttpErrors: false,
      // Never followed: a receiver answering 3xx must not turn a webhook into a request to any other URL
      // (the loopback API included), and a redirect target would skip the blocked-host check.
      redirect: 'manual',
      signal,
    });
    // The reply body is of no interest; cancelling frees the socket without buffering whatever was sent.
    await response.body?.cancel().catch(() => undefined);
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get('location') ?? '(none)';
      return { ok: false, status: response.status, code: 'WEBHOOK_REDIRECT', error: `HTTP ${response.status} redirect to ${location} (not followed)` };
    }
    return { ok: false, status: response.status, code: 'WEBHOOK_HTTP_STATUS', error: `HTTP ${response.status}` };
  } catch (err) {
    if (signal.aborted) return { ok: false, code: 'WEBHOOK_ABORTED', error: 'aborted (outbox closing)', aborted: true };
    return { ok: false, ...describe(err, timeoutMs) };
  }
}
