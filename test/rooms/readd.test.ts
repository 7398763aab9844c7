// Issue 45 defect 1: a room removed and added again records again, also when its thread hosts other rooms.
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, roomOf, startHarness } from './harness.js';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe('remove and re-add', () => {
  it('a re-added room gets a new actor on a shared host and records; refresh reaches it', async () => {
    // Two rooms on one thread: the removed room's thread lives on (the defect: its disposed actor stayed there and
    // took the re-added room's commands, so the room never recorded again).
    h = await startHarness({ rooms: [{ roomId: 45_101, live: true }, { roomId: 45_102, live: true }], roomsPerWorker: 2 });
    const harness = h;
    await harness.waitEvent('FileOpening', (e) => roomOf(e) === 45_101, 40_000);
    await harness.waitEvent('FileOpening', (e) => roomOf(e) === 45_102, 40_000);
    const rec = harness.service.recorder;
    expect(rec.workerCount).toBe(1);
    await rec.removeRoom(rec.findRoom(45_101)!);
    // The removal closed the room's file before it answered.
    expect(harness.events.filter((e) => e.EventType === 'FileClosed' && roomOf(e) === 45_101)).toHaveLength(1);
    const from = harness.events.length;
    // The start of a live room asks play info (the batch answer stands in for room info since issue 48).
    const playBefore = harness.sim.room(45_101).counters.apiHits.getRoomPlayInfo;
    const room = await rec.addRoom(45_101, true);
    const opened = await harness.waitEvent('FileOpening', (e) => roomOf(e) === 45_101, 40_000, from);
    expect(roomOf(opened)).toBe(45_101);
    expect(harness.sim.room(45_101).counters.apiHits.getRoomPlayInfo).toBeGreaterThan(playBefore);
    // Commands reach the new actor: a refresh calls the API again.
    const beforeRefresh = harness.sim.room(45_101).counters.apiHits.getInfoByRoom;
    await room.refresh();
    expect(harness.sim.room(45_101).counters.apiHits.getInfoByRoom).toBeGreaterThan(beforeRefresh);
    expect(room.state.recording).toBe(true);
    // The other room on the thread recorded throughout: one file, still open.
    expect(harness.events.filter((e) => e.EventType === 'FileClosed' && roomOf(e) === 45_102)).toHaveLength(0);
  }, 120_000);

  it('a room re-added while its removal still closes its file gets its new file after the old one closed', async () => {
    h = await startHarness({ rooms: [{ roomId: 45_111, live: true }, { roomId: 45_112, live: true }], roomsPerWorker: 2 });
    const harness = h;
    await harness.waitEvent('FileOpening', (e) => roomOf(e) === 45_111, 40_000);
    const rec = harness.service.recorder;
    const removing = rec.removeRoom(rec.findRoom(45_111)!);
    const from = harness.events.length;
    const adding = rec.addRoom(45_111, true);
    await Promise.all([removing, adding]);
    await harness.waitEvent('FileOpening', (e) => roomOf(e) === 45_111, 40_000, from);
    const mine = harness.events.filter((e) => roomOf(e) === 45_111 && (e.EventType === 'FileOpening' || e.EventType === 'FileClosed')).map((e) => e.EventType);
    expect(mine).toEqual(['FileOpening', 'FileClosed', 'FileOpening']);
  }, 120_000);
});
