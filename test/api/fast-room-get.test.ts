// The raw fast path for GET /api/room and /api/room/{id}: the same answers as the app, and the app's rules for the rest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, startFixture } from './fixture.js';

/** Asks until two answers in a row agree (rooms may still be getting their first statuses), then returns both. */
async function settled(f: ApiFixture, a: string, b: string): Promise<[Response, string, Response, string]> {
  for (let i = 0; ; i++) {
    const x = await f.call('GET', a);
    const xt = await x.text();
    const y = await f.call('GET', b);
    const yt = await y.text();
    if ((xt === yt && x.headers.get('etag') === y.headers.get('etag')) || i >= 20) return [x, xt, y, yt];
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the fast path of the room GETs', () => {
  let f: ApiFixture;
  beforeAll(async () => {
    f = await startFixture({ rooms: Array.from({ length: 20 }, (_, i) => ({ roomId: 7000 + i, autoRecord: i % 2 === 0 })) });
  });
  afterAll(() => f?.close());

  it('answers as the app does (a query sends the request through the app)', async () => {
    for (const path of ['/api/room', '/api/room/7003']) {
      const [fast, fastBody, app, appBody] = await settled(f, path, `${path}?`);
      expect(fast.status).toBe(200);
      expect(app.status).toBe(200);
      expect(fastBody).toBe(appBody);
      expect(fast.headers.get('etag')).toBe(app.headers.get('etag'));
      expect(fast.headers.get('content-type')).toBe(app.headers.get('content-type'));
      expect(Number(fast.headers.get('content-length'))).toBe(Buffer.byteLength(fastBody));
      const again = await f.call('GET', path, undefined, { 'if-none-match': fast.headers.get('etag')! });
      expect([200, 304]).toContain(again.status);
    }
  });

  it('leaves refusals, errors and cross-origin requests to the app', async () => {
    const proxied = await f.call('GET', '/api/room', undefined, { 'x-forwarded-for': '203.0.113.9' });
    expect(proxied.status).toBe(412);
    expect((await f.call('GET', '/api/room/1', undefined, { 'x-real-ip': '203.0.113.9' })).status).toBe(412);
    expect((await f.call('GET', '/api/room/424242')).status).toBe(404);
    const foreign = await f.call('GET', '/api/room/7003', undefined, { origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    const own = await f.call('GET', '/api/room', undefined, { origin: f.url });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBe(f.url);
  });
});

describe('the room list of 5000 rooms', () => {
  let f: ApiFixture;
  beforeAll(async () => {
    f = await startFixture({ rooms: Array.from({ length: 5000 }, (_, i) => ({ roomId: 100_000 + i, autoRecord: false })) });
  }, 120_000);
  afterAll(() => f?.close(), 60_000);

  it('lists every room and answers 304 to its own ETag', async () => {
    let status = 0;
    for (let i = 0; i < 50 && status !== 304; i++) {
      const res = await f.call('GET', '/api/room');
      expect(res.status).toBe(200);
      expect(((await res.json()) as unknown[]).length).toBe(5000);
      status = (await f.call('GET', '/api/room', undefined, { 'if-none-match': res.headers.get('etag')! })).status;
      if (status !== 304) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(304);
  }, 120_000);
});
