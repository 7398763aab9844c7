// Issue 45 defect 3: a split, a reconnect into a new file and a file's first frame are not gaps; one hole is one gap.
import { afterEach, describe, expect, it } from 'vitest';
import type { FileClosedData } from '../../src/events/types.js';
import { FileGaps } from '../../src/rooms/gaps/file-gaps.js';
import { type Harness, roomOf, sleep, startHarness } from '../rooms/harness.js';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe('no false gaps', () => {
  it('a manual split: neither file reports a gap', async () => {
    const ROOM = 45_301;
    h = await startHarness({ rooms: [{ roomId: ROOM, live: true }] });
    const harness = h;
    await harness.waitEvent('FileOpening', (e) => roomOf(e) === ROOM, 40_000);
    // The session's age is the next file's first timestamp: seconds, far over the 500 ms jump threshold.
    await sleep(3000);
    const from = harness.events.length;
    await harness.service.recorder.findRoom(ROOM)!.split();
    await harness.waitEvent('FileOpening', (e) => roomOf(e) === ROOM, 40_000, from);
    await sleep(2000);
    harness.sim.setLive(ROOM, false);
    await harness.waitEvent('SessionEnded', (e) => roomOf(e) === ROOM, 40_000);
    const closed = harness.events.filter((e) => e.EventType === 'FileClosed').map((e) => e.EventData as FileClosedData);
    expect(closed).toHaveLength(2);
    expect(closed.map((c) => c.Gaps ?? [])).toEqual([[], []]);
    expect(harness.service.recorder.findRoom(ROOM)!.state.sessionGaps).toEqual([]);
  }, 120_000);

  it('one hole reported twice (a reconnect and the timestamp jump it leaves) is one gap', () => {
    const gaps = new FileGaps();
    gaps.opened('a.flv');
    expect(gaps.add(10_000, 8000, 'timestamp-jump')).toBe(true);
    gaps.add(10_040, 7900, 'reconnect');
    gaps.add(30_000, 500, 'hls-segment');
    expect(gaps.take()).toEqual([
      { StartMs: 10_000, DurationMs: 8000, Reason: 'reconnect' },
      { StartMs: 30_000, DurationMs: 500, Reason: 'hls-segment' },
    ]);
    expect(gaps.session.map((g) => g.Reason)).toEqual(['reconnect', 'hls-segment']);
  });
});
