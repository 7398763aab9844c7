// The rooms' history ring behind GET /api/history: samples, the one-hour window, NaN pace, wrap-around and removed rooms.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RoomHistory } from '../../src/api/history/index.js';
import { ConfigStore } from '../../src/config/store.js';
import { emptyIoStats, emptyRecordingStats } from '../../src/rooms/protocol.js';
import type { Recorder } from '../../src/rooms/recorder.js';
import { Room } from '../../src/rooms/room.js';
import { RoomChanges } from '../../src/rooms/room-changes.js';

const dir = mkdtempSync(join(tmpdir(), 'liverec-history-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const changes = new RoomChanges();

function rooms(ids: number[]): Room[] {
  const config = ConfigStore.load(dir);
  return ids.map((id) => new Room(config.addRoom(id, true), { command: async () => undefined }, changes));
}

describe('RoomHistory', () => {
  it('keeps one hour of bitrate, pace and bytes per room, oldest first, and forgets removed rooms', () => {
    const list = rooms([501, 502]);
    // Only `rooms` and the change feed are read: the sampler needs no other part of the recorder.
    const recorder = { rooms: list, changes } as unknown as Recorder;
    const history = new RoomHistory(recorder, { intervalMs: 60_000, spanMs: 10 * 60_000 });
    const t0 = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 30; i++) {
      list[0].apply({ ioStats: { ...emptyIoStats(), networkMbps: i / 10 }, recordingStats: { ...emptyRecordingStats(), durationRatio: i % 2 ? 1 : Number.NaN, totalOutputBytes: i * 1000 } });
      history.sample(t0 + i * 60_000);
    }
    const now = t0 + 29 * 60_000;
    const [a, b] = history.series(null, now);
    expect(a.roomId).toBe(501);
    expect(a.objectId).toBe(list[0].objectId);
    // The ring holds 11 samples (10 minutes at one a minute, plus one); the window keeps the last 10 minutes.
    expect(a.t).toEqual(Array.from({ length: 11 }, (_, k) => t0 + (19 + k) * 60_000));
    expect(a.mbps[0]).toBeCloseTo(1.9, 5);
    expect(a.pace.slice(0, 2)).toEqual([1, null]);
    expect(a.bytes.at(-1)).toBe(29_000);
    expect(b.mbps.every((m) => m === 0)).toBe(true);
    expect(history.series(502, now).map((s) => s.roomId)).toEqual([502]);
    expect(history.series(999, now)).toEqual([]);

    list.splice(1, 1);
    history.sample(now + 60_000);
    expect(history.series(null, now + 60_000).map((s) => s.roomId)).toEqual([501]);
  });
});

describe('RoomHistory at scale', () => {
  it('keeps nothing for idle rooms, drops a room\'s columns after a whole idle span, and starts a later room at its listing', () => {
    const list = rooms(Array.from({ length: 2000 }, (_, i) => 10_000 + i));
    const recorder = { rooms: list, changes } as unknown as Recorder;
    const history = new RoomHistory(recorder, { intervalMs: 60_000, spanMs: 10 * 60_000 });
    const t0 = Date.UTC(2026, 0, 2);
    history.sample(t0);
    history.sample(t0 + 60_000);
    expect(history.busyRooms).toBe(0);
    // One room records for a minute, then is idle again (its actor reset the stats).
    list[7].apply({ ioStats: { ...emptyIoStats(), networkMbps: 2 }, recordingStats: { ...emptyRecordingStats(), durationRatio: 1, totalOutputBytes: 5000 } });
    history.sample(t0 + 2 * 60_000);
    expect(history.busyRooms).toBe(1);
    list[7].resetStats();
    for (let k = 3; k <= 12; k++) history.sample(t0 + k * 60_000);
    expect(history.series(list[7].roomId, t0 + 12 * 60_000)[0].mbps).toContain(2);
    expect(history.busyRooms).toBe(1);
    history.sample(t0 + 13 * 60_000);
    expect(history.busyRooms).toBe(0); // the busy sample left the ring: 11 idle samples read as no columns at all
    const [idle] = history.series(list[7].roomId, t0 + 13 * 60_000);
    expect(idle.mbps.every((m) => m === 0) && idle.pace.every((p) => p === null) && idle.bytes.every((b) => b === 0)).toBe(true);
    expect(idle.t).toHaveLength(11);

    // A room listed now reports only samples from its listing on.
    const [late] = rooms([99_999]);
    list.push(late);
    changes.emit(late, { kind: 'added' });
    const listed = Date.now();
    history.sample(listed + 60_000);
    expect(history.series(99_999, listed + 60_000)[0].t).toEqual([listed + 60_000]);
    history.dispose();
  });
});
