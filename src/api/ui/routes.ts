// Serves the single-page UI at /ui/ (and / redirects there) from dist/web, with a strict same-origin CSP.
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { Context } from 'hono';
import type { ApiApp } from '../context.js';
import { ApiErrorCode, errorResponse } from '../errors.js';
import { findWebDir } from './web-dir.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.map': 'application/json; charset=utf-8', '.json': 'application/json; charset=utf-8',
};

/**
 * Everything the page loads comes from this server: scripts, styles, the event stream, recorded files
 * (blob: is mpegts.js's MediaSource). A request to any other host is refused by the browser itself.
 */
export const UI_CSP = [
  "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data:",
  "media-src 'self' blob:", "connect-src 'self'", "worker-src 'self' blob:", "object-src 'none'", "base-uri 'self'",
  "frame-ancestors 'self'", "form-action 'self'",
].join('; ');

const NAME = /^[A-Za-z0-9._-]+$/;

export function registerUiRoutes(app: ApiApp): void {
  const cache = new Map<string, Uint8Array>();
  const dir = findWebDir();

  const serve = async (c: Context, name: string): Promise<Response> => {
    if (!dir) return errorResponse(503, ApiErrorCode.Unknown, 'the web UI is not built: run `npm run build` (it runs esbuild into dist/web)');
    let data = cache.get(name);
    if (!data) {
      try {
        data = new Uint8Array(await readFile(join(dir, name)));
      } catch {
        return errorResponse(404, ApiErrorCode.NotFound, `no such UI file: ${name}`);
      }
      cache.set(name, data);
    }
    return c.body(data as Uint8Array<ArrayBuffer>, 200, {
      'content-type': TYPES[extname(name)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
      'content-security-policy': UI_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
    });
  };

  app.get('/', (c) => c.redirect('/ui/', 302));
  app.get('/ui', (c) => c.redirect('/ui/', 302));
  app.get('/ui/', (c) => serve(c, 'index.html'));
  app.get('/ui/:file', (c) => {
    const file = c.req.param('file');
    // Assets are flat files with an extension; anything else is a client-side route of the single page.
    return NAME.test(file) && extname(file) !== '' ? serve(c, file) : serve(c, 'index.html');
  });
}
