// The shared API limiter: 412/-412/-352 pause every call (in every thread) and recover; calls are spaced.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BilibiliApiClient } from '../../src/bilibili/api-client.js';
import { ApiLimiter } from '../../src/bilibili/api-limiter.js';
import { packageRoot } from '../../src/paths.js';
import { control, startSim } from '../simulator/helpers.js';

let sim: Awaited<ReturnType<typeof startSim>>;
beforeAll(async () => {
  sim = await startSim([{ roomId: 7001, live: true }, { roomId: 7002, live: true }]);
});
afterAll(() => sim.close());

const hits = (roomId: number): number => sim.sim.room(roomId).counters.apiHits.total;

describe('risk-control pause', () => {
  it.each([
    [{ kind: 'api412' }, 'API_HTTP_412'],
    [{ kind: 'api412', inBody: true }, 'API_RISK_412'],
    [{ kind: 'api352' }, 'API_RISK_352'],
  ])('%o pauses all API calls of every client sharing the limiter, then they recover', async (fault, code) => {
    const limiter = ApiLimiter.create({ spacingMs: 0 });
    const a = new BilibiliApiClient({ liveApiHost: sim.url, riskPauseMs: 800 }, limiter);
    const b = new BilibiliApiClient({ liveApiHost: sim.url, riskPauseMs: 800 }, limiter);
    await control(sim.url, '/_sim/rooms/7001/faults', fault);
    await expect(a.getRoomInfo(7001)).rejects.toMatchObject({ code });
    const before = hits(7002);
    // Another client, another room: rejected without a request reaching the service.
    await expect(b.getRoomInfo(7002)).rejects.toMatchObject({ code: 'API_PAUSED', retryAfterMs: expect.any(Number) });
    await expect(b.getDanmuInfo(7002)).rejects.toMatchObject({ code: 'API_PAUSED' });
    expect(hits(7002)).toBe(before);
    await new Promise((r) => setTimeout(r, limiter.pausedUntil() - Date.now() + 20));
    expect((await b.getRoomInfo(7002)).roomId).toBe(7002);
    expect((await a.getRoomInfo(7001)).roomId).toBe(7001);
  });

  it('a duration-based 412 window keeps failing the room until it ends', async () => {
    const limiter = ApiLimiter.create({ spacingMs: 0 });
    const c = new BilibiliApiClient({ liveApiHost: sim.url, riskPauseMs: 100 }, limiter);
    await control(sim.url, '/_sim/rooms/7001/faults', { kind: 'api412', durationMs: 600 });
    await expect(c.getRoomInfo(7001)).rejects.toMatchObject({ code: 'API_HTTP_412', httpStatus: 412 });
    await new Promise((r) => setTimeout(r, 150));
    await expect(c.getRoomInfo(7001)).rejects.toMatchObject({ code: 'API_HTTP_412' });
    await new Promise((r) => setTimeout(r, 600));
    expect((await c.getRoomInfo(7001)).roomId).toBe(7001);
  });

  it('a pause is never shortened by a later, shorter one', () => {
    const l = ApiLimiter.create();
    l.pause(10_000, 1_000);
    l.pause(1_000, 1_000);
    expect(l.pausedUntil()).toBe(11_000);
    l.resume();
    expect(l.pausedUntil()).toBe(0);
  });
});

describe('spacing', () => {
  it('lets a burst through, then spaces calls evenly (500 rooms do not burst)', () => {
    const l = ApiLimiter.create({ spacingMs: 100, burst: 3 });
    const waits = Array.from({ length: 6 }, () => l.reserve(50_000));
    expect(waits).toEqual([0, 0, 0, 100, 200, 300]);
    // After a quiet period the burst is available again.
    expect(l.reserve(60_000)).toBe(0);
    const many = ApiLimiter.create({ spacingMs: 100, burst: 5 });
    const last = Array.from({ length: 500 }, () => many.reserve(0)).at(-1)!;
    expect(last).toBe(49_500);
  });

  it('acquire waits for the slot', async () => {
    const l = ApiLimiter.create({ spacingMs: 150, burst: 1 });
    const t0 = Date.now();
    await l.acquire();
    await l.acquire();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(120);
  });
});

describe('across threads', () => {
  const compiled = join(packageRoot, 'dist', 'src', 'bilibili', 'api-limiter.js');

  function inWorker(shared: unknown, script: string): Promise<unknown> {
    const code = `
      const { parentPort, workerData } = require('node:worker_threads');
      import(${JSON.stringify(pathToFileURL(compiled).href)}).then(async ({ ApiLimiter }) => {
        const limiter = ApiLimiter.fromShared(workerData);
        try { parentPort.postMessage(await (async () => { ${script} })()); }
        catch (err) { parentPort.postMessage({ code: err.code, retryAfterMs: err.retryAfterMs }); }
      });`;
    return new Promise((resolve, reject) => {
      const w = new Worker(code, { eval: true, workerData: shared });
      w.once('message', (m) => {
        resolve(m);
        void w.terminate();
      });
      w.once('error', reject);
    });
  }

  it('a pause set in a worker stops calls in the main thread, and the reverse', async () => {
    expect(existsSync(compiled), 'run `npx tsc -p .` first: workers run the compiled code').toBe(true);
    const l = ApiLimiter.create({ spacingMs: 0 });
    await inWorker(l.toShared(), 'limiter.pause(5000); return "paused";');
    expect(l.pausedUntil()).toBeGreaterThan(Date.now() + 3000);
    await expect(l.acquire()).rejects.toMatchObject({ code: 'API_PAUSED' });
    l.resume();
    expect(await inWorker(l.toShared(), 'await limiter.acquire(); return "ok";')).toBe('ok');
    l.pause(5000);
    expect(await inWorker(l.toShared(), 'await limiter.acquire(); return "ok";')).toMatchObject({ code: 'API_PAUSED' });
  });

  it('slots reserved in different threads never collide', async () => {
    const l = ApiLimiter.create({ spacingMs: 1000, burst: 1 });
    const now = Date.now() + 100_000;
    const fromWorker = (await inWorker(l.toShared(), `return [limiter.reserve(${now}), limiter.reserve(${now})];`)) as number[];
    const fromMain = [l.reserve(now), l.reserve(now)];
    expect([...fromWorker, ...fromMain].sort((x, y) => x - y)).toEqual([0, 1000, 2000, 3000]);
  });
});
