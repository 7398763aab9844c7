// Regression (docs/testing.md, soak seed 6363 run 36): a stop while a dropped connection's file waits for the next
// one, and the session is re-checking the room (an API call slow to answer: budget, risk pause, a slow service). The
// stop cancels the check: the held file is closed with its FileClosed before close() returns, not left to the
// worker's termination after the shutdown's grace (crash recovery at the next start).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecorderEvent } from '../../src/events/types.js';
import { type Harness, roomOf } from '../rooms/harness.js';
import { collectLogs } from '../hls/helpers.js';
import { roomStory, startFlvRoom, until as untilOr } from './flv-room.js';

const ROOM = 23871;
const pathOf = (e: RecorderEvent): string => (e.EventData as { RelativePath: string }).RelativePath;
const logs = collectLogs();
const story = (): string => roomStory(logs, ROOM, ['code']);
const until = (what: string, ok: () => boolean, timeoutMs: number): Promise<void> => untilOr(what, ok, timeoutMs, story);

describe('stop while a dropped connection holds its file', () => {
  let h: Harness;
  let opened: string[];
  let closed: string[];
  beforeAll(async () => {
    h = await startFlvRoom(ROOM, 3000);
    // From now on the room's info answers come after a minute (the API client gives up after its 10-s timeout).
    h.sim.addFault(ROOM, { kind: 'api-delay', delayMs: 60_000, path: 'getInfoByRoom', durationMs: 600_000 });
    const infoCalls = (): number => h.sim.room(ROOM).counters.apiHits.getInfoByRoom;
    const before = infoCalls();
    // The response is dropped and reconnects refused: the file is held for the next connection and the session asks
    // whether the room is still live before it reconnects.
    h.sim.addFault(ROOM, { kind: 'flv-outage', seconds: 120 });
    await until('the connection ended', () => logs.match('stream connection ended', ROOM).length > 0, 60_000);
    await until('the session re-checks the room', () => infoCalls() > before, 60_000);
    const stopAt = h.events.length;
    await h.service.close();
    opened = h.events.filter((e) => e.EventType === 'FileOpening' && roomOf(e) === ROOM).map(pathOf);
    closed = h.events.filter((e) => e.EventType === 'FileClosed' && roomOf(e) === ROOM).map(pathOf);
    expect(h.events.slice(stopAt).filter((e) => e.EventType === 'FileOpening')).toEqual([]);
  }, 180_000);
  afterAll(async () => {
    await h?.close().catch(() => undefined);
  });

  it('closes the held file with its FileClosed before the service has stopped', () => {
    expect(opened, story()).toHaveLength(1);
    expect(closed, story()).toEqual(opened);
    const started = h.events.filter((e) => e.EventType === 'SessionStarted' && roomOf(e) === ROOM).length;
    expect(h.events.filter((e) => e.EventType === 'SessionEnded' && roomOf(e) === ROOM), story()).toHaveLength(started);
  });
});
