// The shared API limiter: 412/-412/-352 pause every call (in every thread) and recover; calls are spaced.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BilibiliApiClient } from '../../src/bilibili/api-client.js';
import { ApiLimiter } from '../../src/bilibili/api-limiter.js';
import { CallWindow } from '../../src/bilibili/api-call-window.js';
import type { ApiPriority } from '../../src/bilibili/api-priority.js';
import { withLock } from '../../src/bilibili/cells-lock.js';
import { WaitQueue } from '../../src/bilibili/api-wait-queue.js';

const cellsOf = (l: ApiLimiter): BigInt64Array => new BigInt64Array(l.toShared().buffer);
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

describe('budget', () => {
  it('lets a minute\'s budget through at once (100 ms apart, 5 may catch up), then waits for the oldest call to leave the minute', () => {
    const l = ApiLimiter.create({ perMinute: 3 });
    const take = (now: number): number => withLock(cellsOf(l), () => new CallWindow(cellsOf(l)).take(now));
    expect([take(50_000), take(50_100), take(50_200)]).toEqual([0, 0, 0]);
    // A fourth call in the same minute waits until the first is a minute old.
    expect(take(50_300)).toBe(59_700);
    expect(take(110_000)).toBe(0);
    // Never two calls closer than 100 ms, even with budget left.
    const m = ApiLimiter.create({ perMinute: 50 });
    const tm = (now: number): number => withLock(cellsOf(m), () => new CallWindow(cellsOf(m)).take(now));
    expect([1000, 1010, 1020, 1030, 1040, 1050].map(tm)).toEqual([0, 0, 0, 0, 0, 50]);
  });

  it('a call counts from its answer, not its grant: the service, which counted it on arrival, never sees more than the rate in its minute', () => {
    const l = ApiLimiter.create({ perMinute: 2 });
    const w = new CallWindow(cellsOf(l));
    const take = (now: number): number => withLock(cellsOf(l), () => w.take(now));
    expect([take(50_000), take(50_100)]).toEqual([0, 0]);
    // The first call reached the service late (a busy thread, a slow connection) and answered at 55 s; the second at once.
    w.answeredAt(0, 55_000);
    w.answeredAt(1, 50_150);
    expect(take(110_000)).toBe(150);
    expect(take(110_150)).toBe(0);
    // The next one waits for the late call's minute to end.
    expect(take(110_300)).toBe(4_700);
    // An earlier time never lowers a call's (a report of a call already counted later is ignored).
    w.answeredAt(0, 40_000);
    expect(w.lastMinute(110_300)).toBe(2);
  });

  it('halves the rate on a risk answer (once for answers arriving together), grows it back by steps, never above the ceiling', () => {
    const l = ApiLimiter.create({ perMinute: 40 });
    expect(l.ratePerMinute()).toBe(40);
    l.answered(false);
    l.answered(false);
    expect(l.ratePerMinute()).toBe(20);
    expect(l.usage().cuts).toBe(1);
    for (let i = 0; i < 4; i++) l.answered(true);
    expect(l.ratePerMinute()).toBe(21);
    for (let i = 0; i < 1000; i++) l.answered(true);
    expect(l.ratePerMinute()).toBe(40);
    // The same ceiling again (another global setting changed) keeps what was learned; a new one starts at it.
    l.answered(false);
    l.setBudgetPerMinute(40);
    expect(l.ratePerMinute()).toBe(40); // the cut above fell within 10 s of the first: not taken
    const k = ApiLimiter.create({ perMinute: 40 });
    k.answered(false);
    k.setBudgetPerMinute(40);
    expect(k.ratePerMinute()).toBe(20);
    k.setBudgetPerMinute(30);
    expect(k.ratePerMinute()).toBe(30);
  });

  it('serves callers by priority, then in order of arrival', async () => {
    const l = ApiLimiter.create({ perMinute: 1 });
    await l.acquire(); // the minute's one call: everyone else queues
    const order: string[] = [];
    const ac = new AbortController();
    const go = (name: string, p: ApiPriority): Promise<void> => l.acquire(ac.signal, p).then(() => void order.push(name), () => undefined);
    const calls = [go('info', 'info'), go('detect-1', 'detect'), go('start-a', 'start'), go('detect-2', 'detect'), go('start-b', 'start'), go('danmaku', 'danmaku')];
    const waiting = (): number => Object.values(l.usage().queued).reduce((a, b) => a + b, 0);
    for (let i = 0; i < 600 && waiting() < 6; i++) await new Promise((r) => setTimeout(r, 10));
    expect(l.usage().queued).toEqual({ start: 2, origin: 0, danmaku: 1, detect: 2, info: 1 });
    // Lift the budget: the queue drains in its order.
    l.setBudgetPerMinute(0);
    await Promise.all(calls);
    expect(order).toEqual(['start-a', 'start-b', 'danmaku', 'detect-1', 'detect-2', 'info']);
    expect(l.usage().queued).toEqual({ start: 0, origin: 0, danmaku: 0, detect: 0, info: 0 });
  });

  it('a danmaku token waits a second in the queue: a start asked for just after it takes the minute\'s last place', async () => {
    const l = ApiLimiter.create({ perMinute: 2 });
    await l.acquire(undefined, 'start');
    const order: string[] = [];
    const ac = new AbortController();
    const token = l.acquire(ac.signal, 'danmaku').then(() => void order.push('danmaku'), () => void order.push('danmaku gave up'));
    await new Promise((r) => setTimeout(r, 200));
    await l.acquire(undefined, 'start');
    order.push('start');
    await new Promise((r) => setTimeout(r, 1200));
    // The minute is full: the token waits for the first call to leave it.
    expect(order).toEqual(['start']);
    ac.abort();
    await token;
    expect(order).toEqual(['start', 'danmaku gave up']);
  });

  it('a level is worth 10 s of waiting: a detection call waiting 31 s goes before a start that just arrived', () => {
    const q = new WaitQueue(cellsOf(ApiLimiter.create()));
    const t = Date.now();
    const detect = q.enter('detect', t - 31_000)!;
    const start = q.enter('start', t)!;
    expect(q.position(detect.slot, detect.key, t)).toBe('head');
    expect(q.position(start.slot, start.key, t)).toBe('waiting');
    q.leave(detect.slot, detect.key, t);
    expect(q.position(start.slot, start.key, t)).toBe('head');
    // A fresher detection call waits behind the start.
    const late = q.enter('detect', t - 29_000)!;
    expect(q.position(late.slot, late.key, t)).toBe('waiting');
  });

  it('a caller that gives up leaves the queue; the next one is served', async () => {
    const l = ApiLimiter.create({ perMinute: 1 });
    await l.acquire();
    const ac = new AbortController();
    const first = l.acquire(ac.signal, 'start');
    const second = l.acquire(undefined, 'detect');
    ac.abort(new Error('gave up'));
    await expect(first).rejects.toThrow('gave up');
    l.setBudgetPerMinute(0);
    await second;
    expect(l.usage().queued.start).toBe(0);
  });

  it('acquire waits for the minute\'s budget', async () => {
    const l = ApiLimiter.create({ perMinute: 600 });
    const t0 = Date.now();
    for (let i = 0; i < 6; i++) await l.acquire();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(90);
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

  it('one budget and one queue across threads: a detection call in a worker waits behind a start in the main thread', async () => {
    const l = ApiLimiter.create({ perMinute: 1 });
    await l.acquire();
    const order: string[] = [];
    const worker = inWorker(l.toShared(), 'await limiter.acquire(undefined, "detect"); return "worker";').then((m) => void order.push(m as string));
    // Wait for the event (the worker queued), not a time: a busy machine starts threads slowly.
    for (let i = 0; i < 600 && l.usage().queued.detect === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(l.usage().queued.detect).toBe(1);
    const main = l.acquire(undefined, 'start').then(() => void order.push('main'));
    l.setBudgetPerMinute(0);
    await Promise.all([worker, main]);
    expect(order).toEqual(['main', 'worker']);
    expect(l.usage().calls).toBe(3);
  });
});
