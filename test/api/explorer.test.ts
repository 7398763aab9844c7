// The swagger explorer works offline: no external URL in its page, its assets served by us.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, startFixture, type ApiFixture } from './fixture.js';

let fx: ApiFixture;
beforeAll(async () => {
  fx = await startFixture({ rooms: [] });
});
afterAll(async () => fx?.close());

const absoluteUrls = (html: string): string[] => html.match(/(?:https?:)?\/\/[^\s"'<>)]+/gi) ?? [];

describe('/swagger/', () => {
  it('serves the explorer at /swagger/ and /swagger/index.html; /swagger redirects', async () => {
    for (const path of ['/swagger/', '/swagger/index.html']) {
      const res = await fetch(`${fx.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).toContain('SwaggerUIBundle');
      expect(html).toContain("url: './brec/swagger.json'");
      expect(absoluteUrls(html)).toEqual([]);
    }
    const redirect = await rawRequest(fx.url, 'GET', '/swagger');
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe('/swagger/index.html');
  });

  it('serves every asset the page references, from our server', async () => {
    const html = await (await fetch(`${fx.url}/swagger/`)).text();
    const refs = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThanOrEqual(2);
    for (const ref of refs) {
      const url = new URL(ref, `${fx.url}/swagger/`);
      expect(url.origin).toBe(fx.url);
      const res = await fetch(url);
      expect(res.status, ref).toBe(200);
      const body = await res.text();
      expect(body.length, ref).toBeGreaterThan(1000);
      expect(res.headers.get('content-type')).toMatch(ref.endsWith('.css') ? /^text\/css/ : /javascript/);
    }
    // The document the page loads, relative to the page.
    expect((await fetch(new URL('./brec/swagger.json', `${fx.url}/swagger/`))).status).toBe(200);
    expect((await fetch(`${fx.url}/swagger/assets/swagger-ui-dist/package.json`)).status).toBe(404);
    expect((await fetch(`${fx.url}/swagger/assets/swagger-ui-dist/..%2fpackage.json`)).status).toBe(404);
  });
});
