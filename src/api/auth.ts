// HTTP Basic auth as brec does it: the base64 of `user:pass` compared exactly, 401 with WWW-Authenticate otherwise.
import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { VERSION } from '../version.js';
import type { ApiEnv } from './context.js';
import { ApiErrorCode } from './errors.js';
import { JSON_CONTENT_TYPE } from './json.js';

export function basicAuth(user: string, pass: string): MiddlewareHandler<ApiEnv> {
  const expected = Buffer.from(Buffer.from(`${user}:${pass}`, 'utf8').toString('base64'));
  const challenge = `Basic realm="liverec ${VERSION}", charset="UTF-8"`;
  const body = JSON.stringify({ code: ApiErrorCode.Unauthorized, message: 'Unauthorized: HTTP Basic credentials required' });
  const html = '<!doctype html><html><head><meta charset="utf-8"><title>401 Unauthorized</title></head><body><h1>401 Unauthorized</h1></body></html>';
  return async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    // No decoding: brec compares the base64 text itself (ordinal), after trimming.
    const given = /^basic /i.test(header) ? Buffer.from(header.slice(6).trim()) : null;
    if (given && given.length === expected.length && timingSafeEqual(given, expected)) return next();
    const wantsHtml = (c.req.header('accept') ?? '').includes('text/html');
    return new Response(wantsHtml ? html : body, {
      status: 401,
      headers: { 'www-authenticate': challenge, 'content-type': wantsHtml ? 'text/html; charset=utf-8' : JSON_CONTENT_TYPE },
    });
  };
}
