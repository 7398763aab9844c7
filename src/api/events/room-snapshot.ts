// What the event stream says about a room: the fields behind `room` frames and the compact stats entry.
import type { Room } from '../../rooms/room.js';
import { wireDouble, type WireDouble } from '../json.js';
import type { RoomHealth } from './room-health.js';

/** The fields whose change is announced at once as a `room` frame (stats travel in throttled snapshots). */
export const ANNOUNCED_FIELDS: ReadonlySet<string> = new Set([
  'roomId', 'autoRecord', 'shortId', 'name', 'title', 'areaNameParent', 'areaNameChild',
  'recording', 'streaming', 'danmakuConnected', 'autoRecordForThisSession', 'unavailableReason',
]);

export interface StatsEntry {
  objectId: string;
  roomId: number;
  health: RoomHealth;
  recording: boolean;
  streaming: boolean;
  danmakuConnected: boolean;
  networkMbps: WireDouble;
  durationRatio: WireDouble;
  sessionDuration: WireDouble;
  totalInputBytes: number;
  totalOutputBytes: number;
  currentFileSize: number;
  fileMaxTimestamp: number;
}

export function statsEntry(room: Room, health: RoomHealth): StatsEntry {
  const r = room.recordingStats;
  return {
    objectId: room.objectId,
    roomId: room.roomId,
    health,
    recording: room.state.recording,
    streaming: room.state.streaming,
    danmakuConnected: room.state.danmakuConnected,
    networkMbps: wireDouble(room.ioStats.networkMbps),
    durationRatio: wireDouble(r.durationRatio),
    sessionDuration: wireDouble(r.sessionDuration),
    totalInputBytes: r.totalInputBytes,
    totalOutputBytes: r.totalOutputBytes,
    currentFileSize: r.currentFileSize,
    fileMaxTimestamp: r.fileMaxTimestamp,
  };
}
