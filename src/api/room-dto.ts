// brec's RoomDto, RoomRecordingStatsDto and RoomIOStatsDto: schemas and the mapping from the main-thread mirror.
import { z } from '@hono/zod-openapi';
import { UNAVAILABLE_REASONS } from '../bilibili/room-availability.js';
import type { Room } from '../rooms/room.js';
import type { IoStats, RecordingStats } from '../rooms/protocol.js';
import { formatUtc, UNSET_DATE } from '../time.js';
import { wireDouble } from './json.js';
import { FileGapSchema } from './gap-schemas.js';
import { DateTimeOffsetSchema, GuidSchema, Int32Schema, Int64Schema, wireDoubleSchema as ms } from './schemas.js';

export const RecordingStatsSchema = z
  .object({
    sessionDuration: ms('ms since the record task was created'),
    totalInputBytes: Int64Schema,
    totalOutputBytes: Int64Schema,
    currentFileSize: Int64Schema,
    sessionMaxTimestamp: Int32Schema.openapi({ description: 'ms' }),
    fileMaxTimestamp: Int32Schema.openapi({ description: 'ms' }),
    addedDuration: ms('ms of media added in the last interval'),
    passedTime: ms('ms of wall time of the last interval'),
    durationRatio: ms('addedDuration / passedTime; "NaN" after a reset (not recording)'),
    inputVideoBytes: Int64Schema,
    inputAudioBytes: Int64Schema,
    outputVideoFrames: Int32Schema,
    outputAudioFrames: Int32Schema,
    outputVideoBytes: Int64Schema,
    outputAudioBytes: Int64Schema,
    totalInputVideoBytes: Int64Schema,
    totalInputAudioBytes: Int64Schema,
    totalOutputVideoFrames: Int32Schema,
    totalOutputAudioFrames: Int32Schema,
    totalOutputVideoBytes: Int64Schema,
    totalOutputAudioBytes: Int64Schema,
  })
  .openapi('RoomRecordingStatsDto');

export const IoStatsSchema = z
  .object({
    streamHost: z.string().nullable().openapi({ description: 'Host of the stream URL; null while no stream is connected' }),
    startTime: DateTimeOffsetSchema,
    endTime: DateTimeOffsetSchema,
    duration: ms('ms between startTime and endTime'),
    networkBytesDownloaded: Int32Schema,
    networkMbps: ms('mebibits per second'),
    diskWriteDuration: ms('ms spent writing'),
    diskBytesWritten: Int32Schema,
    diskMBps: ms('MiB per second of write time; "NaN" when nothing was written'),
  })
  .openapi('RoomIOStatsDto');

/** liverec: the provenance of what a room records (src/bilibili/provenance.ts). */
export const RecordingSourceSchema = z
  .object({
    kind: z.enum(['origin', 'reencode', 'transcode', 'unknown']).openapi({ description: 'origin: the streamer\'s own stream; reencode: the CDN\'s copy sold as 原画 (_bluray); transcode: a lower or other-codec rendition; unknown: the signs are missing or disagree' }),
    qn: z.number().int(),
    codec: z.string().openapi({ description: 'avc, hevc, av1 or empty' }),
    bitrate: z.number().int().openapi({ description: 'bit/s of the variant (master playlist BANDWIDTH), 0 when unknown' }),
    originBitrate: z.number().int().openapi({ description: 'bit/s of the streamer\'s source (origin_bitrate), 0 when unknown' }),
    streamName: z.string(),
    evidence: z.array(z.string()).openapi({ description: 'each fact the verdict rests on: name suffix, suffix=, sid_l, qn, BILI-QN, CODECS …' }),
  })
  .openapi('RecordingSource');

export const RoomSchema = z
  .object({
    objectId: GuidSchema.openapi({ description: 'Regenerated on every start, never saved' }),
    roomId: Int32Schema,
    autoRecord: z.boolean(),
    shortId: Int32Schema.openapi({ description: '0 = none or not fetched yet' }),
    name: z.string(),
    uid: Int64Schema,
    title: z.string(),
    areaNameParent: z.string(),
    areaNameChild: z.string(),
    recording: z.boolean(),
    streaming: z.boolean(),
    danmakuConnected: z.boolean(),
    autoRecordForThisSession: z.boolean(),
    recordingStats: RecordingStatsSchema,
    ioStats: IoStatsSchema,
    recordingCodec: z.enum(['', 'avc', 'hevc', 'av1']).openapi({ description: 'liverec addition: video codec of the file being written (from the quality token, then the stream itself); empty when not recording' }),
    waitingForDiskSpace: z.boolean().openapi({ description: 'liverec addition (after brec\'s fields): no new file is opened because free space is below MinFreeSpaceMB or the disk is full' }),
    unavailableReason: z.enum(UNAVAILABLE_REASONS).nullable().openapi({
      description: 'liverec addition: why the live service will not let liverec record this room, checked again every TimingCheckInterval with at most one API call; '
        + 'paid = a paid live (all_special_types contains 203), password = a password room (encrypted, not verified), guardOnly = live with no stream offered (guards only), '
        + 'drmOnly = every stream is DRM-protected, riskControl = 412/-352 answers lasting longer than one API pause (TimingApiBlockedPause), notFound = the service says the room does not exist; '
        + 'null = nothing stands in the way. No stream retries are made while it is set.',
      example: 'paid',
    }),
    recordingSource: RecordingSourceSchema.nullable().openapi({ description: 'liverec addition: what the session records (origin, reencode, transcode, unknown) with qn, codec and the evidence; null when not recording (docs/origin.md)' }),
    gaps: z.array(FileGapSchema.extend({ RelativePath: z.string() }).openapi('SessionGapDto')).openapi({ description: 'liverec addition: intervals of stream the current session\'s files lack (docs/gaps.md); empty when not recording' }),
  })
  .openapi('RoomDto');

export type RoomDto = z.infer<typeof RoomSchema>;
export type RecordingStatsDto = z.infer<typeof RecordingStatsSchema>;
export type IoStatsDto = z.infer<typeof IoStatsSchema>;

export function recordingStatsDto(s: RecordingStats): RecordingStatsDto {
  return {
    sessionDuration: wireDouble(s.sessionDuration),
    totalInputBytes: s.totalInputBytes,
    totalOutputBytes: s.totalOutputBytes,
    currentFileSize: s.currentFileSize,
    sessionMaxTimestamp: s.sessionMaxTimestamp,
    fileMaxTimestamp: s.fileMaxTimestamp,
    addedDuration: wireDouble(s.addedDuration),
    passedTime: wireDouble(s.passedTime),
    durationRatio: wireDouble(s.durationRatio),
    inputVideoBytes: s.inputVideoBytes,
    inputAudioBytes: s.inputAudioBytes,
    outputVideoFrames: s.outputVideoFrames,
    outputAudioFrames: s.outputAudioFrames,
    outputVideoBytes: s.outputVideoBytes,
    outputAudioBytes: s.outputAudioBytes,
    totalInputVideoBytes: s.totalInputVideoBytes,
    totalInputAudioBytes: s.totalInputAudioBytes,
    totalOutputVideoFrames: s.totalOutputVideoFrames,
    totalOutputAudioFrames: s.totalOutputAudioFrames,
    totalOutputVideoBytes: s.totalOutputVideoBytes,
    totalOutputAudioBytes: s.totalOutputAudioBytes,
  };
}

const wireTime = (t: number | null): string => (t === null ? UNSET_DATE : formatUtc(new Date(t)));

export function ioStatsDto(s: IoStats): IoStatsDto {
  return {
    streamHost: s.streamHost,
    startTime: wireTime(s.startTime),
    endTime: wireTime(s.endTime),
    duration: wireDouble(s.duration),
    networkBytesDownloaded: s.networkBytesDownloaded,
    networkMbps: wireDouble(s.networkMbps),
    diskWriteDuration: wireDouble(s.diskWriteDuration),
    diskBytesWritten: s.diskBytesWritten,
    diskMBps: wireDouble(s.diskMBps),
  };
}

/** Read straight from the mirror: never waits on the room's worker. */
export function roomDto(room: Room): RoomDto {
  const s = room.state;
  return {
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
    recordingStats: recordingStatsDto(room.recordingStats),
    ioStats: ioStatsDto(room.ioStats),
    recordingCodec: s.recordingCodec,
    waitingForDiskSpace: s.waitingForDiskSpace,
    unavailableReason: s.unavailableReason,
    recordingSource: s.recordingSource ?? null,
    gaps: s.sessionGaps ?? [],
  };
}
