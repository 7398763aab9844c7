// Regression (docs/testing.md, soak seed 5252 run 68): an FLV outage whose reconnect brings new sequence headers. The
// new connection begins a new file, so the lost seconds lie between two files: neither file lacks them on its timeline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData } from '../../src/events/types.js';
import { type Harness, roomOf } from '../rooms/harness.js';
import { collectLogs } from '../hls/helpers.js';
import { endStream, roomStory, startFlvRoom } from './flv-room.js';
import { breaks, seiTimestamps } from './helpers.js';

const ROOM = 23861;
const logs = collectLogs();
const story = (): string => roomStory(logs, ROOM);

describe('FLV outage, then a header change before the reconnect', () => {
  let h: Harness;
  let closed: FileClosedData[];
  beforeAll(async () => {
    h = await startFlvRoom(ROOM);
    const from = h.events.length;
    // The open response is dropped and new ones refused for 4 s; the next response carries the other clip's headers.
    h.sim.addFault(ROOM, { kind: 'flv-outage', seconds: 4 });
    h.sim.addFault(ROOM, { kind: 'header-change' });
    await h.waitEvent('FileOpening', (e) => roomOf(e) === ROOM, 60_000, from);
    closed = await endStream(h, ROOM);
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  });

  it('reconnects into a new file and reports no gap in either', () => {
    expect(closed, story()).toHaveLength(2);
    expect(logs.match('reconnect: ', ROOM).map((l) => l.how), story()).toEqual(['new-file']);
    // The first file's frames (each stamped with its stream time) run without a hole to its end: it lacks nothing.
    const sei = seiTimestamps(`${h.workDir}/${closed[0]!.RelativePath}`);
    expect(sei.length).toBeGreaterThan(50);
    expect(breaks(sei)).toEqual([]);
    expect(closed.map((c) => c.Gaps ?? []), story()).toEqual([[], []]);
  });
});
