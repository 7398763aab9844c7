import type { EventSource } from './source.js';

// Recorder lifecycle events, shaped like brec's webhook v2 EventData (PascalCase) so the outbox sends them as-is.

export const EVENT_TYPES = ['SessionStarted', 'SessionEnded', 'FileOpening', 'FileClosed', 'StreamStarted', 'StreamEnded'] as const;
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
  | EventBase<'StreamEnded', RoomEventSnapshot>;
