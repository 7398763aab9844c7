// A /start whose check failed (-352) records the stream live then, never one that begins after it (soak seed 4646 run 8).
import { afterEach, describe, expect, it } from 'vitest';
import { logRing } from '../../src/log/logger.js';
import { type Harness, roomOf, startHarness } from './harness.js';

/** The API pause after a -352, longer than the -352 window so calls after it are answered. */
const PAUSE_MS = 10_000;
const RISK_MS = 8000;
let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

/** Starts a harness with `roomId` (auto-record off), then arms -352 answers for it and sends /start. */
async function startDuringRisk(roomId: number, live: boolean): Promise<Harness> {
  h = await startHarness({
    rooms: [{ roomId, live }], record: [],
    global: { TimingCheckInterval: 5, TimingApiBlockedPause: PAUSE_MS },
  });
  const harness = h;
  const room = await harness.service.recorder.addRoom(roomId, false);
  // Offline: the room's thread runs and has checked it (so the start's own check meets the -352 at once). Live: the
  // thread starts with the /start and knows nothing, so the recording waits for the first check after the pause.
  if (live) await until(() => room.state.name !== '');
  else await room.refresh();
  // Every call naming the room answers -352 for a while: the start's own check fails and the API pauses.
  harness.sim.addFault(roomId, { kind: 'api352', count: 1_000_000, durationMs: RISK_MS });
  await room.start();
  return harness;
}

/** What the room did first after the start: a session, or the pending start dropped (its log line). */
function outcome(harness: Harness, roomId: number): Promise<'session' | 'dropped'> {
  return new Promise((resolve, reject) => {
    const off = logRing.onEntry((_id, log) => {
      if (log.RoomId === roomId && String(log['@mt']).startsWith('the start asked while the room could not be checked')) done('dropped');
    });
    const done = (what: 'session' | 'dropped'): void => {
      off();
      resolve(what);
    };
    harness.waitEvent('SessionStarted', (e) => roomOf(e) === roomId, 90_000).then(() => done('session'), (err: unknown) => (off(), reject(err)));
  });
}

async function until(pred: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error('condition not met within 60 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a /start whose check failed', () => {
  it('does not record a stream that began after it (auto-record off)', async () => {
    const ROOM = 45_501;
    const harness = await startDuringRisk(ROOM, false);
    const startedAt = Date.now();
    const result = outcome(harness, ROOM);
    // The room goes live while the API is paused, in a later second than the start (live_time counts seconds).
    await until(() => Math.floor(Date.now() / 1000) > Math.floor(startedAt / 1000));
    harness.sim.setLive(ROOM, true);
    expect(await result).toBe('dropped');
    expect(harness.events.filter((e) => roomOf(e) === ROOM && e.EventType === 'FileOpening')).toEqual([]);
  }, 120_000);

  it('records the stream that was live at the start once the API answers again', async () => {
    const ROOM = 45_502;
    const harness = await startDuringRisk(ROOM, true);
    expect(await outcome(harness, ROOM)).toBe('session');
  }, 120_000);
});
