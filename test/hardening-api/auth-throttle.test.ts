// Failed Basic authentication is rate-limited per client address and logged; the right password from elsewhere still works.
import { expect, it } from 'vitest';
import { initLogger, logRing } from '../../src/log/logger.js';
import { AuthThrottle } from '../../src/api/auth-throttle.js';
import { rawRequest, startFixture } from '../api/fixture.js';

const basic = (user: string, pass: string): string => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

it('after 10 wrong passwords an address gets 429 with Retry-After, even with the right one; failures are logged', async () => {
  const fx = await startFixture({ basicUser: 'admin', basicPass: 'right', rooms: [] });
  initLogger({ level: 'silent' }); // the ring below still gets every line
  try {
    const before = logRing.fetch().cursor;
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) statuses.push((await rawRequest(fx.url, 'GET', '/api/version', { authorization: basic('admin', `guess-${i}`) })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(new Set(statuses.slice(10))).toEqual(new Set([429]));
    const blocked = await rawRequest(fx.url, 'GET', '/api/version', { authorization: basic('admin', 'right') });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(blocked.body.toString())).toMatchObject({ code: -17 });
    const logs = logRing.fetch(before).logs;
    const failed = logs.filter((l) => l['@mt'] === 'HTTP Basic authentication failed');
    expect(failed).toHaveLength(10);
    expect(failed[0]).toMatchObject({ client: expect.stringMatching(/127\.0\.0\.1/), code: 'AUTH_FAILED' });
    expect(logs.filter((l) => l.code === 'AUTH_THROTTLED')).toHaveLength(1);
    expect(JSON.stringify(logs)).not.toContain('guess-');
  } finally {
    await fx.close();
  }
});

it('the bucket refills: one more guess per refill period, and a full bucket is forgotten', () => {
  const t = new AuthThrottle({ burst: 3, refillMs: 1000 });
  for (let i = 0; i < 3; i++) {
    expect(t.retryAfterMs('a', 0)).toBe(0);
    t.fail('a', 0);
  }
  expect(t.retryAfterMs('a', 0)).toBe(1000);
  expect(t.retryAfterMs('b', 0)).toBe(0);
  expect(t.retryAfterMs('a', 999)).toBe(1);
  expect(t.retryAfterMs('a', 1000)).toBe(0);
  t.fail('a', 1000);
  expect(t.retryAfterMs('a', 1500)).toBe(500);
  expect(t.retryAfterMs('a', 10_000)).toBe(0);
});
