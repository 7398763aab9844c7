// Regression (docs/testing.md, soak seed 6363 runs 40/44): a reconnect gap belongs to the file its next frame is
// written to. A split asked for while the file waits for the reconnect starts the new file with the open GOP of
// before the drop, so the hole lies inside the new file: the old one lacks nothing and must report nothing. And run
// 40's journey: a header change just before the drop, then the split, so the reconnect brings new headers too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData } from '../../src/events/types.js';
import { type Harness, roomOf } from '../rooms/harness.js';
import { collectLogs } from '../hls/helpers.js';
import { endStream, roomStory, startFlvRoom, until as untilOr } from './flv-room.js';
import { breaks, seiTimestamps } from './helpers.js';

const ROOM = 23871;
const ROOM_HEADERS = 23872;
const logs = collectLogs();
const story = (room = ROOM): string => roomStory(logs, room);
const until = (f: () => boolean, ms: number, what: string, room = ROOM): Promise<void> => untilOr(what, f, ms, () => story(room));

/** How much of the stream a file lacks by its frames (each carries its stream time in an SEI). */
const lacksMs = (h: Harness, c: FileClosedData): number =>
  breaks(seiTimestamps(`${h.workDir}/${c.RelativePath}`)).reduce((n, [a, b]) => n + (b - a - 40), 0);

describe('a split while the file waits for the reconnect', () => {
  let h: Harness;
  let closed: FileClosedData[];
  beforeAll(async () => {
    h = await startFlvRoom(ROOM);
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
    closed = await endStream(h, ROOM);
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  });

  it('reports the gap in the file that lacks it, and only there', () => {
    expect(closed, story()).toHaveLength(2);
    expect(logs.match('reconnect: ', ROOM).map((l) => l.how), story()).toEqual(['unaligned']);
    const lacks = closed.map((c) => lacksMs(h, c));
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

describe('a header change just before the drop, and a split while the file waits (soak seed 6363 run 40)', () => {
  let h: Harness;
  let closed: FileClosedData[];
  beforeAll(async () => {
    h = await startFlvRoom(ROOM_HEADERS);
    const from = h.events.length;
    const aborted = logs.match('stream connection ended', ROOM_HEADERS).length;
    // The other clip starts at the next segment boundary; the drop comes first, so the reconnect brings its headers.
    h.sim.addFault(ROOM_HEADERS, { kind: 'header-change', midStream: true });
    h.sim.addFault(ROOM_HEADERS, { kind: 'flv-outage', seconds: 2 });
    await until(() => logs.match('stream connection ended', ROOM_HEADERS).length > aborted, 30_000, 'dropped connection', ROOM_HEADERS);
    await h.service.recorder.findRoom(ROOM_HEADERS)!.split();
    await h.waitEvent('FileOpening', (e) => roomOf(e) === ROOM_HEADERS, 60_000, from);
    await until(() => logs.match('reconnect: ', ROOM_HEADERS).length > 0, 60_000, 'reconnect plan', ROOM_HEADERS);
    closed = await endStream(h, ROOM_HEADERS);
  }, 180_000);
  afterAll(async () => {
    await h?.close();
  });

  it('writes files that each lack nothing, and reports no gap', () => {
    if (process.env.GAP_DEBUG) console.log(story(ROOM_HEADERS));
    expect(closed.length, story(ROOM_HEADERS)).toBeGreaterThanOrEqual(2);
    expect(closed.map((c) => lacksMs(h, c)), story(ROOM_HEADERS)).toEqual(closed.map(() => 0));
    expect(closed.map((c) => c.Gaps ?? []), story(ROOM_HEADERS)).toEqual(closed.map(() => []));
  });
});
