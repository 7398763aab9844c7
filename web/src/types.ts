// The wire shapes the UI reads (REST DTOs and event-stream frames).
export type Wire = number | 'NaN' | 'Infinity' | '-Infinity';
export type Health = 'ok' | 'rate-limited' | 'stalled' | 'no-stream' | 'error';

export interface RoomDto {
  objectId: string; roomId: number; autoRecord: boolean; shortId: number; name: string; uid: number; title: string;
  areaNameParent: string; areaNameChild: string; recording: boolean; streaming: boolean; danmakuConnected: boolean;
  autoRecordForThisSession: boolean; recordingStats: Record<string, Wire>; ioStats: Record<string, Wire | string | null>;
  /** Why the service will not let liverec record the room; null or absent when nothing stands in the way. */
  unavailableReason?: UnavailableReason | null;
  /** liverec: what the session records; null when not recording (absent from older servers). */
  recordingSource?: RecordingSource | null;
}

export type UnavailableReason = 'paid' | 'password' | 'guardOnly' | 'drmOnly' | 'riskControl' | 'notFound';

export interface RecordingSource { kind: string; qn: number; codec: string; evidence: string[] }

export interface StatsEntry {
  objectId: string; roomId: number; health: Health; recording: boolean; streaming: boolean; danmakuConnected: boolean;
  networkMbps: Wire; durationRatio: Wire; sessionDuration: Wire; totalInputBytes: number; totalOutputBytes: number;
  currentFileSize: number; fileMaxTimestamp: number;
}

export interface LifecycleEvent {
  EventType: string; EventTimestamp: string; EventId: string;
  EventData: { RoomId: number; Name: string; SessionId?: string; RelativePath?: string; FileSize?: number; Duration?: number; [k: string]: unknown };
}

export interface LogEntry { id: number; log: Record<string, unknown> }

export interface Optional<T = unknown> { hasValue: boolean; value: T }

export interface Delivery {
  eventId: string; eventType: string; version: 1 | 2; url: string; attempts: number; state: string;
  lastStatus: number | null; lastError: string | null; lastErrorCode: string | null; createdAt: string; updatedAt: string;
  nextAttemptAt: string | null; finishedAt: string | null;
}

export const num = (w: Wire | string | null | undefined): number => (typeof w === 'number' ? w : Number.NaN);

/** GET /api/jobs: one post-file job. */
export interface PostJob {
  id: string; fileId: string; kind: string; step: number; roomId: number; relativePath: string; state: string; attempts: number;
  createdAt: string; updatedAt: string; nextAttemptAt: string | null; error: string | null; output: string | null;
  /** done-with-warnings remux: the source's byte ranges not copied (the source is kept). */
  skipped?: { offset: number; bytes: number; reason: string }[] | null;
}
