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
}

export interface FileClosedData extends FileOpeningData {
  /** Bytes. */
  FileSize: number;
  /** Seconds (0 in RawData mode). */
  Duration: number;
  FileCloseTime: string;
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
