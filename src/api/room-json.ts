// A room's brec RoomDto as JSON bytes, the same as JSON.stringify(roomDto(room)), reusing the stats' bytes.
import type { IoStats, RecordingStats } from '../rooms/protocol.js';
import type { Room } from '../rooms/room.js';
import { ByteWriter } from './byte-writer.js';
import { ioStatsDto, recordingStatsDto } from './room-dto.js';

/*
 * Why: the two stats objects are two thirds of a room's JSON, and every idle room shares the same frozen pair
 * (rooms/room.ts), while a recording room gets a new pair per stats tick. Keying their JSON bytes by object
 * identity makes the first list answer after start-up (every room serialised at once, 5000 of them) encode the idle
 * stats once instead of 5000 times. Only the room's own fields are written as text: names and titles make that text
 * two-byte, and neither the stats nor the whole room should be carried through it. The field order is roomDto's: a
 * test compares the two for every shape.
 */
const statsBytes = new WeakMap<RecordingStats, { io: IoStats; bytes: Buffer }>();

/** `{…recording stats…},"ioStats":{…io stats…}` as bytes, kept for the pair (idle rooms all share one pair). */
function statsPair(rs: RecordingStats, io: IoStats): Buffer {
  const hit = statsBytes.get(rs);
  if (hit?.io === io) return hit.bytes;
  const bytes = Buffer.from(`${JSON.stringify(recordingStatsDto(rs))},"ioStats":${JSON.stringify(ioStatsDto(io))}`);
  statsBytes.set(rs, { io, bytes });
  return bytes;
}

const q = JSON.stringify;
/** A number as JSON.stringify writes it (NaN and infinities as null). */
const n = (x: number): string => (Number.isFinite(x) ? String(x) : 'null');

/** Appends the room's JSON: its fields written one by one (strings through JSON.stringify), the stats as bytes. */
export function writeRoomJson(w: ByteWriter, room: Room): void {
  const s = room.state;
  const gaps = s.sessionGaps ?? [];
  w.string(`{"objectId":${q(room.objectId)},"roomId":${n(room.roomId)},"autoRecord":${room.autoRecord},"shortId":${n(s.shortId)},`
    + `"name":${q(s.name)},"uid":${n(s.uid)},"title":${q(s.title)},"areaNameParent":${q(s.areaNameParent)},"areaNameChild":${q(s.areaNameChild)},`
    + `"recording":${s.recording},"streaming":${s.streaming},"danmakuConnected":${s.danmakuConnected},"autoRecordForThisSession":${s.autoRecordForThisSession},`
    + '"recordingStats":');
  w.bytes(statsPair(room.recordingStats, room.ioStats));
  w.string(`,"recordingCodec":${q(s.recordingCodec)},"waitingForDiskSpace":${s.waitingForDiskSpace},`
    + `"unavailableReason":${s.unavailableReason === null ? 'null' : q(s.unavailableReason)},"recordingSource":${s.recordingSource ? q(s.recordingSource) : 'null'},`
    + `"gaps":${gaps.length === 0 ? '[]' : q(gaps)}}`);
}

/** The room's JSON bytes alone. */
export function roomJsonBytes(room: Room): Buffer {
  const w = new ByteWriter(2048);
  writeRoomJson(w, room);
  return w.done();
}
