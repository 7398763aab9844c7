// Issue 48: live rooms start within seconds on about one API call each, under risk control, and fairly between rooms.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIELDS, type FieldName } from '../../src/config/fields.js';
import type { FileOpeningData } from '../../src/events/types.js';
import type { SimRoomInit } from '../../src/simulator/index.js';
import { control } from '../simulator/helpers.js';
import { FAST, roomOf, startHarness, type Harness } from '../rooms/harness.js';
import { eventually } from '../web/setup.js';

/** The simulator's risk control at 60 calls a minute per IP (docs/bilibili-2026.md): never reached. */
const RISK = 60;
/** The harness's short test timings and wide budget put back to their defaults: these tests run the default configuration. */
const DEFAULTS = Object.fromEntries(Object.keys(FAST).map((k) => [k, FIELDS[k as FieldName].default]));

const roomsFrom = (first: number, n: number, live: boolean): SimRoomInit[] => Array.from({ length: n }, (_, i) => ({ roomId: first + i, live }));

/** Waits (polling, generous bound) for `cond`: the shared poller of the web tests. */
const until = (what: string, cond: () => boolean, timeoutMs = 90_000): Promise<unknown> => eventually(what, cond, timeoutMs);

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe('fast start (issue 48)', () => {
  it('20 rooms live when liverec starts, guests capped: each grows a file soon after start, on one stream call, ≤ 2 live-API calls a room + 10, no 412', async () => {
    const rooms = roomsFrom(640_001, 20, true);
    // The default simulator's guest cap (current_qn 250 to a guest, as the 2025-07 capture shows): one start learns it,
    // the others ask the master playlist alone.
    h = await startHarness({ rooms, global: DEFAULTS, sim: { riskPerMinute: RISK, guestQnCap: true } });
    const up = Date.now();
    const opened = new Map<number, { at: number; path: string }>();
    await Promise.all(rooms.map(async (r) => {
      const e = await h!.waitEvent('FileOpening', (x) => roomOf(x) === r.roomId, 90_000);
      opened.set(r.roomId, { at: Date.now(), path: join(h!.workDir, (e.EventData as FileOpeningData).RelativePath) });
    }));
    // A late start holds its first frames while it reaches back into the HLS window: the file may appear a moment later.
    const size = (id: number): number => statSync(opened.get(id)!.path, { throwIfNoEntry: false })?.size ?? 0;
    const first = new Map(rooms.map((r) => [r.roomId, size(r.roomId)]));
    await until('every file growing', () => rooms.every((r) => size(r.roomId) > first.get(r.roomId)!));
    // A generous bound (a busy machine slows every thread); issue 48's 20 s and its p95 of 15 s are measured by
    // `npm run bench:start -- --rooms 20` (docs/performance.md).
    const slowest = Math.max(...[...opened.values()].map((o) => o.at - up));
    expect(slowest).toBeLessThan(60_000);
    // The danmaku tokens came after the streams; count once every room holds its socket.
    const sim = h.sim;
    await until('every danmaku socket', () => rooms.every((r) => sim.room(r.roomId).danmaku.size === 1));
    let probes = 0;
    for (const r of rooms) {
      const hits = sim.room(r.roomId).counters.apiHits;
      // One stream call: the master playlist; the start that learned the cap asked play info first.
      probes += hits.getRoomPlayInfo;
      expect({ room: r.roomId, info: hits.getInfoByRoom, master: hits.masterPlaylist, danmu: hits.getDanmuInfo })
        .toEqual({ room: r.roomId, info: 0, master: 1, danmu: 1 });
    }
    expect(probes).toBeGreaterThanOrEqual(1);
    const stats = sim.stats() as { apiCalls: number; riskHits: number; peakApiCallsPerMinute: number };
    expect(stats.riskHits).toBe(0);
    expect(stats.apiCalls).toBeLessThanOrEqual(2 * rooms.length + 10);
  }, 180_000);

  it('50 rooms going live together beside 300 idle ones: every one records, on one stream call each, no 412', async () => {
    const going = roomsFrom(660_001, 50, false);
    const IDLE = 300;
    const idle = Array.from({ length: IDLE }, (_, i) => 670_001 + i);
    h = await startHarness({
      rooms: going, record: [...going.map((r) => r.roomId), ...idle], global: DEFAULTS, sim: { riskPerMinute: RISK, guestQnCap: true },
      beforeStart: async (_sim, url) => void (await control(url, '/_sim/rooms/bulk', { count: IDLE, firstRoomId: idle[0] })),
    });
    const sim = h.sim;
    // Every room checked once (uids learned, a batch round) before the flips, as a running liverec would be.
    await until('a batch round', () => (sim.stats() as { batchCalls: number }).batchCalls >= 2);
    const flip = Date.now();
    for (const r of going) sim.setLive(r.roomId, true);
    await Promise.all(going.map((r) => h!.waitEvent('FileOpening', (e) => roomOf(e) === r.roomId, 180_000)));
    // A generous bound; issue 48's 2 check intervals + 10 s is measured by `npm run bench:start -- --rooms 50 --idle 500
    // --mode going-live` (docs/performance.md).
    expect(Date.now() - flip).toBeLessThan(150_000);
    let stream = 0;
    for (const r of going) {
      const hits = sim.room(r.roomId).counters.apiHits;
      const calls = hits.getRoomPlayInfo + hits.masterPlaylist + hits.getInfoByRoom;
      expect({ room: r.roomId, calls: Math.min(calls, 2), info: hits.getInfoByRoom }).toEqual({ room: r.roomId, calls, info: 0 });
      stream += calls;
    }
    // One stream call a start, plus the start that learned the guest cap (and another if its answer came late).
    expect(stream).toBeLessThanOrEqual(going.length + 3);
    expect((sim.stats() as { riskHits: number }).riskHits).toBe(0);
  }, 300_000);

  it('a room whose stream fails on every connection cannot delay the start of 10 others', async () => {
    const FAIL = 650_001;
    const healthy = roomsFrom(650_011, 10, false);
    // A small budget, so that the failing room's loop (a retry every second) fills it before the others go live.
    h = await startHarness({
      rooms: [{ roomId: FAIL, live: true }, ...healthy], global: { ApiBudgetPerMinute: 20 }, sim: { riskPerMinute: RISK },
      beforeStart: async (_sim, url) => void (await control(url, `/_sim/rooms/${FAIL}/faults`, { kind: 'stream-404', count: 1_000_000 })),
    });
    const sim = h.sim;
    const limiter = (await import('../../src/bilibili/api-limiter.js')).getProcessLimiter();
    await until('the failing room to use up the budget', () => sim.room(FAIL).counters.apiHits.getRoomPlayInfo >= 3 && limiter.usage().lastMinute >= 19);
    for (const r of healthy) sim.setLive(r.roomId, true);
    await Promise.all(healthy.map((r) => h!.waitEvent('FileOpening', (e) => roomOf(e) === r.roomId, 150_000)));
    const playAt = healthy.map((r) => sim.room(r.roomId).apiLog.find((l) => l.path.endsWith('getRoomPlayInfo'))!.at);
    const [firstStart, lastStart] = [Math.min(...playAt), Math.max(...playAt)];
    // While the ten starts waited for the budget, the failing room's calls waited behind them.
    const failing = sim.room(FAIL).apiLog.filter((l) => l.at > firstStart && l.at < lastStart).length;
    expect(failing).toBeLessThanOrEqual(2);
    for (const r of healthy) expect(sim.room(r.roomId).counters.apiHits.getRoomPlayInfo).toBe(1);
    expect((sim.stats() as { riskHits: number }).riskHits).toBe(0);
  }, 240_000);
});
