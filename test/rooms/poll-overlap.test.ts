// A room's own check timer never piles calls into the API budget's queue: one check of a room at a time (soak seed 8585 run 47).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getProcessLimiter } from '../../src/bilibili/api-limiter.js';
import { waitFor } from '../simulator/helpers.js';
import { type Harness, sleep, startHarness } from './harness.js';

const ROOMS = [45_601, 45_602, 45_603];
const INTERVAL_S = 5;

/*
 * Why: a room that cannot be recorded (riskControl after -352s, or paid, password…) is checked by its own timer every
 * TimingCheckInterval. When the budget is short each check waits minutes for its turn, and a timer that fires again
 * meanwhile queued another call, and another: the pile of old checks then went before a /start's calls (a waiter
 * older than a level's head start beats a newer start), and a manual start waited over three minutes.
 */
describe("a room's check timer with a short API budget", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      rooms: ROOMS.map((roomId) => ({ roomId, live: false })),
      // 6 calls a minute (the limiter's floor): a check waits about 10 s per caller ahead of it.
      global: { TimingCheckInterval: INTERVAL_S, TimingApiBlockedPause: 1000, ApiBudgetPerMinute: 6 },
    });
  });
  afterAll(() => h?.close());

  it('has at most one check per room waiting for its turn', async () => {
    const rooms = () => ROOMS.map((id) => h.service.recorder.findRoom(id)!);
    await waitFor(() => rooms().every((r) => r.state.name !== ''), 60_000, 'first room info');
    // -352 answers for every call naming a room until each is riskControl: from then on its timer checks it.
    for (const id of ROOMS) h.sim.addFault(id, { kind: 'api352', count: 1_000_000, durationMs: 600_000 });
    await waitFor(() => rooms().every((r) => r.state.unavailableReason === 'riskControl'), 120_000, 'every room riskControl');
    for (const id of ROOMS) h.sim.clearFaults(id);
    let most = 0;
    const end = Date.now() + 6 * INTERVAL_S * 1000;
    while (Date.now() < end) {
      most = Math.max(most, getProcessLimiter().usage().queued.info);
      await sleep(100);
    }
    expect(most).toBeGreaterThan(0); // the checks did wait: the case under test happened
    expect(most).toBeLessThanOrEqual(ROOMS.length);
  }, 300_000);
});
