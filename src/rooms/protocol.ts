// The contract between the main thread and room workers: commands (comlink) one way, a typed message union back.
import type { UnavailableReason } from '../bilibili/room-availability.js';
import type { BatchRoomStatus } from '../bilibili/batch-status.js';
import type { ClientTestSwitches } from '../bilibili/client-options.js';
import type { PlainError } from '../errors.js';
import type { FileGap, RecorderEvent } from '../events/types.js';
import type { RoomSettings } from '../config/fields.js';
import type { EventSource, RecordingSource } from '../events/source.js';

/** brec's RoomRecordingStatsDto values (milliseconds, bytes, frames). Reset = zeros with durationRatio NaN. */
export interface RecordingStats {
  sessionDuration: number;
  totalInputBytes: number;
  totalOutputBytes: number;
  currentFileSize: number;
  sessionMaxTimestamp: number;
  fileMaxTimestamp: number;
  addedDuration: number;
  passedTime: number;
  durationRatio: number;
  inputVideoBytes: number;
  inputAudioBytes: number;
  outputVideoFrames: number;
  outputAudioFrames: number;
  outputVideoBytes: number;
  outputAudioBytes: number;
  totalInputVideoBytes: number;
  totalInputAudioBytes: number;
  totalOutputVideoFrames: number;
  totalOutputAudioFrames: number;
  totalOutputVideoBytes: number;
  totalOutputAudioBytes: number;
}

/** brec's RoomIOStatsDto values; times are epoch ms (null = unset), durations ms. */
export interface IoStats {
  streamHost: string | null;
  startTime: number | null;
  endTime: number | null;
  duration: number;
  networkBytesDownloaded: number;
  networkMbps: number;
  diskWriteDuration: number;
  diskBytesWritten: number;
  diskMBps: number;
}

/** Room facts from the live service, "" / 0 until fetched. */
export interface RoomInfo {
  shortId: number;
  name: string;
  uid: number;
  title: string;
  areaNameParent: string;
  areaNameChild: string;
}

/** Everything the main thread mirrors for one room. */
export interface RoomState extends RoomInfo {
  recording: boolean;
  streaming: boolean;
  danmakuConnected: boolean;
  autoRecordForThisSession: boolean;
  /** The video codec of the file being written ('' when not recording); liverec's addition to the room resource. */
  recordingCodec: '' | 'avc' | 'hevc' | 'av1';
  /** liverec: recording waits because free space is below MinFreeSpaceMB or the disk is full. */
  waitingForDiskSpace: boolean;
  /** liverec: why the service will not let us record this room (paid, password, …); null when nothing stands in the way. */
  unavailableReason: UnavailableReason | null;
  /** liverec: what the session records (origin, re-encode, transcode) with its evidence; null when not recording. */
  recordingSource: RecordingSource | null;
  /** liverec: the gaps of the current session's files so far, each with its file (empty when not recording). */
  sessionGaps: SessionGap[];
}

/** A gap of one of the session's files (see FileGap). */
export interface SessionGap extends FileGap {
  RelativePath: string;
}

export const emptyRecordingStats = (): RecordingStats => ({
  sessionDuration: 0, totalInputBytes: 0, totalOutputBytes: 0, currentFileSize: 0, sessionMaxTimestamp: 0,
  fileMaxTimestamp: 0, addedDuration: 0, passedTime: 0, durationRatio: Number.NaN, inputVideoBytes: 0,
  inputAudioBytes: 0, outputVideoFrames: 0, outputAudioFrames: 0, outputVideoBytes: 0, outputAudioBytes: 0,
  totalInputVideoBytes: 0, totalInputAudioBytes: 0, totalOutputVideoFrames: 0, totalOutputAudioFrames: 0,
  totalOutputVideoBytes: 0, totalOutputAudioBytes: 0,
});

export const emptyIoStats = (): IoStats => ({
  streamHost: null, startTime: null, endTime: null, duration: 0, networkBytesDownloaded: 0, networkMbps: 0,
  diskWriteDuration: 0, diskBytesWritten: 0, diskMBps: 0,
});

export const initialRoomState = (): RoomState => ({
  shortId: 0, name: '', uid: 0, title: '', areaNameParent: '', areaNameChild: '',
  recording: false, streaming: false, danmakuConnected: false, autoRecordForThisSession: true, recordingCodec: '',
  waitingForDiskSpace: false, unavailableReason: null, recordingSource: null, sessionGaps: [],
});

/** What a room actor needs to run; `settings` is the resolved room → global → default config. */
export interface RoomInit {
  roomId: number;
  settings: RoomSettings;
  workDir: string;
  /** Test-only faults are honoured only when the recorder was started with them enabled. */
  allowTestFaults?: boolean;
  /** Test-only: signing or guest identity off for this run's API clients (see ClientTestSwitches). */
  clientTestSwitches?: ClientTestSwitches;
  /** Live detection is the process's batch detector's (src/detect/): the actor keeps no poll timer of its own. */
  batchDetect?: boolean;
  /** The anchor uid, when known (cached): the actor then makes no call until the detector reports the room. */
  uid?: number;
  /** Illegal lifecycle transitions throw (tests) instead of being counted (see room-lifecycle.ts); default by NODE_ENV/VITEST. */
  strictLifecycle?: boolean;
}

/** What the batch detector saw of one room. */
export interface RoomObservation {
  roomId: number;
  status: BatchRoomStatus;
  /** Live with another live_time than the detector saw for this room before: it went offline and live again unseen. */
  newStream?: boolean;
}

export interface StatsEntry {
  roomId: number;
  recordingStats?: RecordingStats;
  ioStats?: IoStats;
}

/**
 * The live preview's bytes (src/preview/), sent only while the main thread has turned a room's preview on:
 * `head` the open file's FLV header and sequence headers (on turning on, and at each new file), `data` bytes as
 * they were appended to the file (metadata rewrites left out), `end` the file closed, `danmaku` one comment.
 */
export type PreviewChunk =
  | { kind: 'head'; bytes: Uint8Array; /** The open file's full path. */ path: string; format: PreviewFormat }
  | { kind: 'data'; bytes: Uint8Array }
  | { kind: 'end' }
  | { kind: 'danmaku'; text: string; color: number; user: string };

/** What a room's preview carries: FLV tags, or whole MPEG-TS or fMP4 segments (HLS rooms; fMP4's head is its init section). */
export type PreviewFormat = 'flv' | 'ts' | 'mp4';

/** Messages from a room host worker to the main thread (one-way, over a dedicated MessagePort). */
export type RoomMessage =
  | { type: 'state'; roomId: number; state: Partial<RoomState> }
  /** Latest stats of the host's rooms, batched: at most 2 messages per second per worker (so per room too). */
  | { type: 'stats'; entries: StatsEntry[] }
  /** `path`: with a FileClosed, the file's full path (the main thread then records it as closed in the journal). */
  | { type: 'event'; roomId: number; event: RecorderEvent; path?: string }
  /** A file was opened/closed, so the supervisor can finalise it if the worker dies. */
  | { type: 'file'; roomId: number; action: 'opened' | 'closed'; path: string; sessionId: string; openTime: string; source?: EventSource }
  /** The actor learned its real room id (the configured id was a short id). */
  | { type: 'roomId'; roomId: number; realRoomId: number }
  | { type: 'log'; roomId: number; level: 'debug' | 'info' | 'warn' | 'error'; msg: string; fields?: Record<string, unknown> }
  | { type: 'error'; roomId: number; error: PlainError }
  | { type: 'preview'; roomId: number; chunk: PreviewChunk }
  /**
   * An answer to a call made with the room's login cookie treated it as a guest (play info's guest cap): the main
   * thread checks that login now (src/accounts/). `why` is one English sentence; it never carries the cookie.
   */
  | { type: 'loginIgnored'; roomId: number; why: string };

/** Commands to one room (the worker exposes them per room through the host API). */
export type RoomCommand = 'start' | 'stop' | 'split' | 'refresh' | 'dispose' | 'testCrash' | 'testThrow' | 'testOom' | 'testHangStop'
  /** The batch detector's per-room fallback: one getInfoByRoom, failures recorded as the room's (never thrown). */
  | 'check';

/** The API a room host worker exposes over comlink. */
export interface RoomHostApi {
  /** Adds a room actor; its messages go to the host's message port. */
  addRoom(init: RoomInit): Promise<void>;
  command(roomId: number, command: RoomCommand): Promise<void>;
  updateConfig(roomId: number, settings: RoomSettings): Promise<void>;
  /** Batch detector results for rooms on this host (unknown rooms are skipped). */
  observe(observations: RoomObservation[]): Promise<void>;
  /** Turns a room's live preview on or off; the format of the file it writes now, null when none the preview reads. */
  preview(roomId: number, on: boolean): Promise<PreviewFormat | null>;
  /**
   * Stops every actor, closing files with final metadata. `deadlineMs`: a stop still under way then closes its open
   * files where they stand (FileClosed posted) and the call returns, before the main thread ends the worker.
   */
  shutdown(deadlineMs?: number): Promise<void>;
}

/** workerData of a room host worker. */
export interface RoomHostData {
  hostId: number;
  /** Shared state of the process-wide API limiter (see src/bilibili). */
  limiter?: unknown;
}
