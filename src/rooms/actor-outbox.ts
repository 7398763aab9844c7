// What an actor sends to the main thread: state, events and logs at once; stats through the worker's batcher.
import type { EventSource } from '../events/source.js';
import type { RecorderEvent } from '../events/types.js';
import { toPlainError } from '../errors.js';
import type { IoStats, RecordingStats, RoomMessage, RoomState } from './protocol.js';
import type { StatsBatcher } from './stats-batcher.js';

export class ActorOutbox {
  constructor(
    private readonly postMessage: (m: RoomMessage) => void,
    private readonly batcher: StatsBatcher,
    private roomId: number,
  ) {}

  /** The room id messages carry now. */
  get room(): number {
    return this.roomId;
  }

  /** The actor learned its real room id: later messages use it. */
  setRoomId(roomId: number): void {
    this.batcher.rename(this.roomId, roomId);
    this.roomId = roomId;
  }

  /** Posts a raw message (for the few kinds without a helper). */
  post(message: RoomMessage): void {
    this.postMessage(message);
  }

  state(state: Partial<RoomState>): void {
    this.postMessage({ type: 'state', roomId: this.roomId, state });
  }

  event(event: RecorderEvent, path?: string): void {
    this.flush(); // stats that led up to an event are visible before it
    this.postMessage(path === undefined ? { type: 'event', roomId: this.roomId, event } : { type: 'event', roomId: this.roomId, event, path });
  }

  file(action: 'opened' | 'closed', path: string, sessionId: string, openTime: string, source?: EventSource): void {
    this.postMessage({ type: 'file', roomId: this.roomId, action, path, sessionId, openTime, ...(source ? { source } : {}) });
  }

  log(level: 'debug' | 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>): void {
    this.postMessage({ type: 'log', roomId: this.roomId, level, msg, fields });
  }

  error(err: unknown): void {
    this.postMessage({ type: 'error', roomId: this.roomId, error: toPlainError(err) });
  }

  /** Stats go through the worker's batcher: the latest values, at most twice a second. */
  stats(recording?: RecordingStats, io?: IoStats): void {
    this.batcher.add(this.roomId, recording, io);
  }

  flush(): void {
    this.batcher.flush();
  }
}
