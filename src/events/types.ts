import type { EventSource } from './source.js';

// Recorder lifecycle events, shaped like brec's webhook v2 EventData (PascalCase) so the outbox sends them as-is.

export const EVENT_TYPES = ['SessionStarted', 'SessionEnded', 'FileOpening', 'FileClosed', 'StreamStarted', 'StreamEnded', 'PostProcessed', 'FileDeleted'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The room snapshot every event carries, taken when the event is built. */
export interface RoomEventSnapshot {
  RoomId: number;
  ShortId: number;
  Name: string;
  Title: string;
  AreaNameParent: string;
  AreaNameChild: string;
  Recording: boolean;
  Streaming: boolean;
  DanmakuConnected: boolean;
}

export interface SessionData extends RoomEventSnapshot {
  SessionId: string;
}

export interface FileOpeningData extends SessionData {
  RelativePath: string;
  /** DateTimeOffset string (local offset). */
  FileOpenTime: string;
  /** Cluster mode only: the node whose disk holds the file. */
  NodeId?: string;
  /** liverec extension: what the file's stream is (origin, re-encode, transcode) and the evidence. */
  Source?: EventSource;
  /** liverec extension: a late start reached this many ms before the live position (older HLS segments). */
  BackfillMs?: number;
}

export interface FileClosedData extends FileOpeningData {
  /** Bytes. */
  FileSize: number;
  /** Seconds (0 in RawData mode). */
  Duration: number;
  FileCloseTime: string;
  /** liverec extension: intervals of media time the source produced but this file lacks (absent or empty: none). */
  Gaps?: FileGap[];
  /** liverec extension: moments marked while the file was recorded (`<name>.markers.json`; absent or empty: none). */
  Markers?: FileMarker[];
}

/** A moment marked on a file's timeline (see docs/clips.md). */
export interface FileMarker {
  AtMs: number;
  Label: string;
}

/** Why a file lacks an interval of the stream (see docs/gaps.md). */
export const GAP_REASONS = ['reconnect', 'hls-segment', 'timestamp-jump'] as const;
export type GapReason = (typeof GAP_REASONS)[number];

/** One interval the file lacks: where it sits on the file's timeline and how much media is missing there. */
export interface FileGap {
  /** Milliseconds from the file's start where the missing media would have been. */
  StartMs: number;
  DurationMs: number;
  Reason: GapReason;
}

/** liverec extension (v2 webhooks only): a closed file's post-file jobs have all ended. */
export interface PostProcessedData extends FileClosedData {
  /** Every job done. */
  Succeeded: boolean;
  /** The file the chain left (the MP4 after a remux), relative to the work directory. */
  OutputPath: string;
  /** Skipped: a remux's byte ranges of the source not copied (done-with-warnings; the source is kept), else null. */
  Jobs: { Kind: string; State: 'done' | 'done-with-warnings' | 'failed'; Attempts: number; Error: string | null; Output: string | null;
    Skipped: { offset: number; bytes: number; reason: string }[] | null }[];
}

/** liverec extension (v2 webhooks only): retention deleted a closed recording and its sidecars. */
export interface FileDeletedData extends RoomEventSnapshot {
  /** RoomId: from the recording's folder or file name (`<roomId>-…`), 0 when neither starts with one; the rest of the snapshot when the room is known. */
  /** The recording's media file (the first one), relative to the work directory. */
  RelativePath: string;
  /** Every file deleted with it (video, danmaku XML, ASS, cover, MP4), relative. */
  Files: string[];
  /** Bytes freed. */
  FileSize: number;
  Reason: 'max-age' | 'max-total' | 'min-free';
}

interface EventBase<T extends EventType, D> {
  EventType: T;
  /** DateTimeOffset string with fractional seconds, taken when the event was queued. */
  EventTimestamp: string;
  EventData: D;
}

export type RecorderEvent =
  | EventBase<'SessionStarted', SessionData>
  | EventBase<'SessionEnded', SessionData>
  | EventBase<'FileOpening', FileOpeningData>
  | EventBase<'FileClosed', FileClosedData>
  | EventBase<'StreamStarted', RoomEventSnapshot>
  | EventBase<'StreamEnded', RoomEventSnapshot>
  | EventBase<'PostProcessed', PostProcessedData>
  | EventBase<'FileDeleted', FileDeletedData>;
