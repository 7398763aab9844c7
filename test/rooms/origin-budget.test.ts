// The origin checks stay within the API budget: 100 rooms recording re-encodes with the origin absent add at most one play-info call per room per TimingOriginCheckInterval.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, sleep, startHarness } from './harness.js';
import { until } from '../webhook/helpers.js';

const IDS = Array.from({ length: 100 }, (_, i) => 37100 + i);
/** A short interval for the test (default 60 s); 100 rooms at 10 s is the shared limiter's default rate of 10 calls/s. */
const INTERVAL_S = 10;
const WINDOW_MS = 25_000;

describe('origin checks and the API budget', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      rooms: IDS.map((roomId) => ({ roomId, live: true, formats: ['flv' as const], variants: { bluray: true, originAvailable: false } })),
      global: { TimingOriginCheckInterval: INTERVAL_S },
    });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  }, 60_000);

  it('adds at most one getRoomPlayInfo per room per interval, and does look', async () => {
    await until(() => IDS.every((id) => h.service.recorder.findRoom(id)?.state.recordingSource?.kind === 'reencode'), 180_000);
    const before = IDS.map((id) => h.sim.room(id).counters.apiHits.getRoomPlayInfo);
    await sleep(WINDOW_MS);
    const added = IDS.map((id, i) => h.sim.room(id).counters.apiHits.getRoomPlayInfo - before[i]!);
    const most = Math.floor(WINDOW_MS / 1000 / INTERVAL_S) + 1;
    expect(Math.max(...added)).toBeLessThanOrEqual(most);
    expect(Math.min(...added)).toBeGreaterThanOrEqual(1);
    // Nothing but re-encodes was offered, so nothing switched.
    expect(h.events.filter((e) => e.EventType === 'FileOpening').length).toBe(IDS.length);
  }, 300_000);
});
