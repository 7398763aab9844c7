// HTTP Basic auth as brec does it (the base64 of `user:pass` compared exactly, 401 with WWW-Authenticate), throttled per address.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { VERSION } from '../version.js';
import { AuthThrottle, type AuthThrottleOptions } from './auth-throttle.js';
import type { ApiEnv } from './context.js';
import { ApiErrorCode, errorResponse } from './errors.js';
import { JSON_CONTENT_TYPE } from './json.js';

// Digests of equal length, so the comparison takes the same time whatever the guess (its length included).
const digest = (b: Buffer | string): Buffer => createHash('sha256').update(b).digest();

export function basicAuth(user: string, pass: string, throttleOptions?: AuthThrottleOptions): MiddlewareHandler<ApiEnv> {
  const expected = digest(Buffer.from(`${user}:${pass}`, 'utf8').toString('base64'));
  const throttle = new AuthThrottle(throttleOptions);
  const challenge = `Basic realm="liverec ${VERSION}", charset="UTF-8"`;
  const body = JSON.stringify({ code: ApiErrorCode.Unauthorized, message: 'Unauthorized: HTTP Basic credentials required' });
  const html = '<!doctype html><html><head><meta charset="utf-8"><title>401 Unauthorized</title></head><body><h1>401 Unauthorized</h1></body></html>';
  return async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    // No decoding: brec compares the base64 text itself (ordinal), after trimming.
    const given = /^basic /i.test(header) ? digest(header.slice(6).trim()) : null;
    const client = c.env?.incoming?.socket?.remoteAddress ?? 'unknown';
    const wait = throttle.retryAfterMs(client);
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      return errorResponse(429, ApiErrorCode.TooManyRequests, `too many failed logins from ${client}; retry in ${seconds} s`, { 'retry-after': String(seconds) });
    }
    if (given && timingSafeEqual(given, expected)) return next();
    if (header !== '') throttle.fail(client);
    const wantsHtml = (c.req.header('accept') ?? '').includes('text/html');
    return new Response(wantsHtml ? html : body, {
      status: 401,
      headers: { 'www-authenticate': challenge, 'content-type': wantsHtml ? 'text/html; charset=utf-8' : JSON_CONTENT_TYPE },
    });
  };
}
