// A room's brec RoomDto as JSON text, the same bytes as JSON.stringify(roomDto(room)), reusing the stats' JSON.
import type { Room } from '../rooms/room.js';
import { ioStatsDto, recordingStatsDto } from './room-dto.js';

/*
 * Why: the two stats objects are two thirds of a room's JSON, and every idle room shares the same frozen pair
 * (rooms/room.ts), while a recording room gets a new pair per stats tick. Keying their JSON by object identity
 * makes the first list answer after start-up (every room serialised at once, 5000 of them) serialise the idle
 * stats once instead of 5000 times. The field order is roomDto's: a test compares the two for every shape.
 */
const statsJson = new WeakMap<object, string>();

function memo<T extends object>(stats: T, dto: (s: T) => unknown): string {
  let json = statsJson.get(stats);
  if (json === undefined) {
    json = JSON.stringify(dto(stats));
    statsJson.set(stats, json);
  }
  return json;
}

export function roomJson(room: Room): string {
  const s = room.state;
  const head = JSON.stringify({
    objectId: room.objectId,
    roomId: room.roomId,
    autoRecord: room.autoRecord,
    shortId: s.shortId,
    name: s.name,
    uid: s.uid,
    title: s.title,
    areaNameParent: s.areaNameParent,
    areaNameChild: s.areaNameChild,
    recording: s.recording,
    streaming: s.streaming,
    danmakuConnected: s.danmakuConnected,
    autoRecordForThisSession: s.autoRecordForThisSession,
  });
  const tail = JSON.stringify({
    recordingCodec: s.recordingCodec,
    waitingForDiskSpace: s.waitingForDiskSpace,
    unavailableReason: s.unavailableReason,
    recordingSource: s.recordingSource ?? null,
    gaps: s.sessionGaps ?? [],
  });
  return `${head.slice(0, -1)},"recordingStats":${memo(room.recordingStats, recordingStatsDto)},"ioStats":${memo(room.ioStats, ioStatsDto)},${tail.slice(1)}`;
}
