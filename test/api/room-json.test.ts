// roomJson writes the same bytes as JSON.stringify(roomDto(room)); the list snapshot stays equal to it through changes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ByteWriter } from '../../src/api/byte-writer.js';
import { roomDto } from '../../src/api/room-dto.js';
import { roomJsonBytes } from '../../src/api/room-json.js';

const roomJson = (room: Room): string => roomJsonBytes(room).toString('utf8');
import { RoomSnapshots } from '../../src/api/room-snapshot.js';
import { ConfigStore } from '../../src/config/store.js';
import { emptyIoStats, emptyRecordingStats } from '../../src/rooms/protocol.js';
import { Room } from '../../src/rooms/room.js';

const dir = mkdtempSync(join(tmpdir(), 'liverec-room-json-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('roomJson', () => {
  it('equals JSON.stringify(roomDto(room)) for every shape of room, also when stats objects are reused', () => {
    const store = ConfigStore.load(dir);
    const control = { command: async (): Promise<void> => undefined };
    const idle = new Room(store.addRoom(1, false), control);
    const other = new Room(store.addRoom(2, true), control);
    other.apply({ state: { name: '主播 "quoted" \\ back', title: '标题\n换行 \u2028', shortId: 22, uid: 9_007_199_254_740_000, areaNameParent: '网游', areaNameChild: '英雄联盟' } });
    const live = new Room(store.addRoom(3, true), control);
    const stats = { ...emptyRecordingStats(), sessionDuration: 1234.5, durationRatio: Number.NaN, totalInputBytes: 10_000_000_000, currentFileSize: 42 };
    const io = { ...emptyIoStats(), streamHost: 'cn-gd.bilivideo.com', startTime: Date.UTC(2026, 10, 27, 6, 0, 0), endTime: Date.UTC(2026, 10, 27, 6, 0, 5, 250), networkMbps: Number.POSITIVE_INFINITY };
    live.apply({
      state: {
        recording: true, streaming: true, danmakuConnected: true, recordingCodec: 'hevc', unavailableReason: null,
        recordingSource: { kind: 'origin', qn: 25000, codec: 'hevc', bitrate: 0, originBitrate: 8_000_000, streamName: 'live_1_bluray', evidence: ['qn=25000'] },
        sessionGaps: [{ RelativePath: 'a/b.flv', StartMs: 1000, DurationMs: 250, Reason: 'reconnect' } as never],
      },
      recordingStats: stats, ioStats: io,
    });
    // The same stats object on a second room: the memo must not leak one room's fields into another's.
    other.apply({ recordingStats: stats });
    const unavailable = new Room(store.addRoom(4, true), control);
    unavailable.apply({ state: { unavailableReason: 'paid', waitingForDiskSpace: true } });
    for (const room of [idle, other, live, unavailable, idle, live]) {
      expect(roomJson(room)).toBe(JSON.stringify(roomDto(room)));
      JSON.parse(roomJson(room));
    }
    live.apply({ recordingStats: { ...stats, currentFileSize: 43 } });
    expect(roomJson(live)).toBe(JSON.stringify(roomDto(live)));
    expect(JSON.parse(roomJson(live)).recordingStats.currentFileSize).toBe(43);
  });
});

describe('the room list snapshot', () => {
  it('equals the rooms serialised afresh after changes, additions, removals and reordering, serialising only what changed', () => {
    const store = ConfigStore.load(mkdtempSync(join(dir, 'list-')));
    const control = { command: async (): Promise<void> => undefined };
    let rooms = Array.from({ length: 6 }, (_, i) => new Room(store.addRoom(100 + i, i % 2 === 0), control));
    rooms[1]!.apply({ state: { name: '中文名', title: '标题 ✓' } });
    const snaps = new RoomSnapshots();
    const expected = (): string => JSON.stringify(rooms.map((r) => roomDto(r)));
    const check = (): string => {
      const w = snaps.whole(rooms);
      expect(w.body.toString('utf8')).toBe(expected());
      return w.etag;
    };
    const e1 = check();
    expect(snaps.serialised).toBe(6);
    expect(check()).toBe(e1);
    expect(snaps.serialised).toBe(6);
    rooms[3]!.apply({ state: { title: '新标题', recording: true } });
    const e2 = check();
    expect(e2).not.toBe(e1);
    expect(snaps.serialised).toBe(7);
    rooms = [rooms[5]!, ...rooms.slice(0, 2), new Room(store.addRoom(200, true), control), ...rooms.slice(3, 5)];
    check();
    expect(snaps.serialised).toBe(8);
    rooms = rooms.slice(1);
    check();
    expect(snaps.serialised).toBe(8);
    rooms = [];
    expect(snaps.whole(rooms).body.toString()).toBe('[]');
  });

  it('pages and filters from the same bytes', () => {
    const store = ConfigStore.load(mkdtempSync(join(dir, 'page-')));
    const control = { command: async (): Promise<void> => undefined };
    const rooms = Array.from({ length: 7 }, (_, i) => new Room(store.addRoom(300 + i, true), control));
    for (const i of [1, 4, 5]) rooms[i]!.apply({ state: { recording: true, title: `直播 ${i}` } });
    const snaps = new RoomSnapshots();
    const ids = (body: Buffer): number[] => (JSON.parse(body.toString()) as { roomId: number }[]).map((r) => r.roomId);
    expect(ids(snaps.page(rooms, { recording: true }).body)).toEqual([301, 304, 305]);
    expect(ids(snaps.page(rooms, { recording: false, limit: 2, page: 2 }).body)).toEqual([303, 306]);
    expect(ids(snaps.page(rooms, { limit: 3, page: 3 }).body)).toEqual([306]);
    expect(ids(snaps.page(rooms, { limit: 3, page: 4 }).body)).toEqual([]);
    expect(snaps.page(rooms, { recording: true }).body.toString()).toBe(JSON.stringify([1, 4, 5].map((i) => roomDto(rooms[i]!))));
  });
});

describe('ByteWriter', () => {
  it('grows past its first size and writes what Buffer.from would, for one-, two-, three- and four-byte characters', () => {
    const w = new ByteWriter(0);
    const pieces: (string | Buffer)[] = [];
    for (let i = 0; i < 3000; i++) {
      const s = ['a', 'é', '直播', '😀', 'x'.repeat(i % 7)][i % 5]!.repeat(1 + (i % 13));
      if (i % 11 === 0) {
        const b = Buffer.from(`[${s}]`);
        w.copy(b, 1, b.length - 1);
        pieces.push(b.subarray(1, b.length - 1));
      } else {
        w.string(s);
        pieces.push(s);
      }
      w.byte(0x2c);
      pieces.push(',');
    }
    const expected = Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
    const out = w.done();
    expect(out.length).toBe(w.length);
    expect(out.equals(expected)).toBe(true);
  });
});
