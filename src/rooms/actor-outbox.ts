// What an actor sends to the main thread: state, events, logs at once; stats coalesced to at most 2 per second.
import type { RecorderEvent } from '../events/types.js';
import { toPlainError } from '../errors.js';
import type { IoStats, RecordingStats, RoomMessage, RoomState } from './protocol.js';

const STATS_INTERVAL_MS = 500;

export class ActorOutbox {
  private pendingRecording: RecordingStats | undefined;
  private pendingIo: IoStats | undefined;
  private timer: NodeJS.Timeout | null = null;
  private lastFlush = 0;

  constructor(private readonly postMessage: (m: RoomMessage) => void, private roomId: number) {}

  /** The actor learned its real room id: later messages use it. */
  setRoomId(roomId: number): void {
    this.roomId = roomId;
  }

  /** Posts a raw message (for the few kinds without a helper). */
  post(message: RoomMessage): void {
    this.postMessage(message);
  }

  state(state: Partial<RoomState>): void {
    this.postMessage({ type: 'state', roomId: this.roomId, state });
  }

  event(event: RecorderEvent): void {
    this.flush(); // stats that led up to an event are visible before it
    this.postMessage({ type: 'event', roomId: this.roomId, event });
  }

  file(action: 'opened' | 'closed', path: string, sessionId: string, openTime: string): void {
    this.postMessage({ type: 'file', roomId: this.roomId, action, path, sessionId, openTime });
  }

  log(level: 'debug' | 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>): void {
    this.postMessage({ type: 'log', roomId: this.roomId, level, msg, fields });
  }

  error(err: unknown): void {
    this.postMessage({ type: 'error', roomId: this.roomId, error: toPlainError(err) });
  }

  /** Coalesces stats: one message per 500 ms at most, always carrying the latest values. */
  stats(recording?: RecordingStats, io?: IoStats): void {
    if (recording) this.pendingRecording = { ...recording };
    if (io) this.pendingIo = { ...io };
    if (this.timer) return;
    const wait = Math.max(0, this.lastFlush + STATS_INTERVAL_MS - Date.now());
    this.timer = setTimeout(() => this.flush(), wait);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.pendingRecording && !this.pendingIo) return;
    this.lastFlush = Date.now();
    this.postMessage({ type: 'stats', roomId: this.roomId, recordingStats: this.pendingRecording, ioStats: this.pendingIo });
    this.pendingRecording = this.pendingIo = undefined;
  }
}
