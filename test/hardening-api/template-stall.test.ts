// Heavy file-name templates never stall the API: previews render off the main thread, time-boxed by liquidjs' limits.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixture, type ApiFixture } from '../api/fixture.js';

const BOMB = '{% for a in (1..100000) %}{% for b in (1..100000) %}{{ b }}{% endfor %}{% endfor %}';
let fx: ApiFixture;
beforeAll(async () => {
  fx = await startFixture({ rooms: [] });
});
afterAll(() => fx.close());

it('10 nested-loop previews in flight: GET /api/version keeps answering meanwhile, and each preview ends in a TemplateError', async () => {
  let done = 0;
  const previews = Array.from({ length: 10 }, () =>
    fx.call('POST', '/api/misc/generateFileName', { template: BOMB, context: { roomId: 1, name: 'n', title: 't' } })
      .then(async (r) => ({ status: r.status, json: (await r.json()) as { status: number; errorMessage: string; relativePath: string } }))
      .finally(() => done++));
  // Version requests one after another until the first preview is answered. A render takes at least liquidjs'
  // renderLimit (500 ms) before it is cut: on the main thread, every request would wait behind it.
  let versions = 0;
  while (done === 0) {
    expect((await fx.call('GET', '/api/version')).status).toBe(200);
    versions++;
  }
  expect(versions).toBeGreaterThanOrEqual(5);
  for (const p of await Promise.all(previews)) {
    expect(p.status).toBe(200);
    expect(p.json.status).toBe(1);
    expect(p.json.errorMessage).toMatch(/template error/);
    expect(p.json.relativePath).toMatch(/^1-n\/录制-1-\d{8}-\d{6}-\d{3}-t\.flv$/);
  }
  // A normal preview still works afterwards.
  const ok = await fx.call('POST', '/api/misc/generateFileName', { template: '{{ roomId }}/{{ title }}', context: { roomId: 7, title: 'x' } });
  expect(await ok.json()).toMatchObject({ status: 0, relativePath: '7/x.flv' });
});
