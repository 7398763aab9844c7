// The interactive explorer at /swagger/ (@hono/swagger-ui) with swagger-ui-dist served by us: no CDN, works offline.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { swaggerUI } from '@hono/swagger-ui';
import type { ApiApp } from './context.js';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-16x16.png': 'image/png',
  'favicon-32x32.png': 'image/png',
};

const distDir = (): string => dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

export function registerSwaggerRoutes(app: ApiApp): void {
  // Relative URLs (page lives at /swagger/), so the explorer also works behind a prefix-stripping reverse proxy.
  const page = swaggerUI({ url: './brec/swagger.json', baseUrl: './assets', validatorUrl: 'none', title: '录播姬 REST API — liverec' });
  app.get('/swagger', (c) => c.redirect('/swagger/index.html', 301));
  app.get('/swagger/', page);
  app.get('/swagger/index.html', page);

  const dir = distDir();
  const cache = new Map<string, Buffer>();
  app.get('/swagger/assets/swagger-ui-dist/:file', async (c) => {
    const name = c.req.param('file');
    const type = ASSETS[name];
    if (!type) return c.notFound();
    let data = cache.get(name);
    if (!data) {
      data = await readFile(join(dir, name));
      cache.set(name, data);
    }
    return c.body(new Uint8Array(data), 200, { 'content-type': type, 'cache-control': 'max-age=86400' });
  });
}
