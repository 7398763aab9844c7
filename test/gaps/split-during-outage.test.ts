// Regression (docs/testing.md, soak seed 6363 runs 40/44): a reconnect gap belongs to the file its next frame is
// written to. A split asked for while the file waits for the reconnect starts the new file with the open GOP of
// before the drop, so the hole lies inside the new file: the old one lacks nothing and must report nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData } from '../../src/events/types.js';
import { type Harness, roomOf, sleep, startHarness } from '../rooms/harness.js';
import { collectLogs } from '../hls/helpers.js';
import { breaks, seiTimestamps } from './helpers.js';

const ROOM = 23871;
const logs = collectLogs();
const story = (): string => logs.lines.filter((l) => l.RoomId === ROOM).map((l) => `${l['@t']} ${l['@mt']} ${JSON.stringify({ how: l.how, gapMs: l.gapMs, code: l.code })}`).join('\n');

/** Polls until `f` holds (the event, not a time); rejects after `ms`. */
async function until(f: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!f()) {
    if (Date.now() > end) throw new Error(`no ${what} within ${ms} ms\n${story()}`);
    await sleep(50);
  }
}

describe('a split while the file waits for the reconnect', () => {
  let h: Harness;
  let closed: FileClosedData[];
  beforeAll(async () => {
    h = await startHarness({
      rooms: [{ roomId: ROOM, live: true, formats: ['flv', 'fmp4'], liveStream: { hlsRetentionSec: 60 } }],
      roomConfig: { [ROOM]: { RecordingProtocol: 'flv' } },
    });
    await h.waitEvent('FileOpening', (e) => roomOf(e) === ROOM, 40_000);
    await sleep(4000);
    // The HLS window carries other content: nothing aligns, so the reconnect's lost time is a real gap.
    h.sim.addFault(ROOM, { kind: 'hls-foreign', on: true });
    const from = h.events.length;
    const aborted = logs.match('stream connection ended', ROOM).length;
    h.sim.addFault(ROOM, { kind: 'flv-outage', seconds: 3 });
    // The connection is gone and the file is held for the next one: only now the split is asked for.
    await until(() => logs.match('stream connection ended', ROOM).length > aborted, 30_000, 'dropped connection');
    await h.service.recorder.findRoom(ROOM)!.split();
    await h.waitEvent('FileOpening', (e) => roomOf(e) === ROOM, 60_000, from);
    await until(() => logs.match('reconnect: ', ROOM).length > 0, 60_000, 'reconnect plan');
    await sleep(3000);
    h.sim.setLive(ROOM, false);
    await h.waitEvent('SessionEnded', (e) => roomOf(e) === ROOM, 60_000);
    closed = h.events.filter((e) => e.EventType === 'FileClosed' && roomOf(e) === ROOM).map((e) => e.EventData as FileClosedData);
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  });

  it('reports the gap in the file that lacks it, and only there', () => {
    expect(closed, story()).toHaveLength(2);
    expect(logs.match('reconnect: ', ROOM).map((l) => l.how), story()).toEqual(['unaligned']);
    const lacks = closed.map((c) => breaks(seiTimestamps(`${h.workDir}/${c.RelativePath}`)).reduce((n, [a, b]) => n + (b - a - 40), 0));
    // The old file ends at its last whole GOP before the drop: it lacks nothing. The new one begins with the GOP that
    // was open at the drop, then the hole (each frame carries its stream time, so the holes are the truth).
    expect(lacks[0], story()).toBe(0);
    expect(lacks[1], story()).toBeGreaterThan(1000);
    expect(closed[0]!.Gaps ?? [], story()).toEqual([]);
    const gaps = closed[1]!.Gaps ?? [];
    expect(gaps.map((g) => g.Reason), story()).toEqual(['reconnect']);
    expect(Math.abs(gaps[0]!.DurationMs - lacks[1]!), story()).toBeLessThanOrEqual(100);
  });
});
