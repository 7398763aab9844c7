// The main-thread side of one room: its config entry, the mirror of its actor's state and stats, and its commands.
import { randomUUID } from 'node:crypto';
import type { RoomConfigEntry } from '../config/store.js';
import {
  emptyIoStats, emptyRecordingStats, initialRoomState,
  type IoStats, type RecordingStats, type RoomCommand, type RoomState,
} from './protocol.js';

/** How a room reaches its actor; implemented by the supervisor. */
export interface RoomControl {
  command(roomId: number, command: RoomCommand): Promise<void>;
}

export class Room {
  /** Regenerated on every start and never saved, as in brec. crypto.randomUUID, not nanoid: the API needs a UUID. */
  readonly objectId: string = randomUUID();
  state: RoomState = initialRoomState();
  recordingStats: RecordingStats = emptyRecordingStats();
  ioStats: IoStats = emptyIoStats();
  /** Set once the room was removed; commands become no-ops, as in brec. */
  disposed = false;
  /** Bumped with every change to the mirror (state or stats): the API's cached answers compare it, not the fields. */
  version = 0;

  constructor(readonly entry: RoomConfigEntry, private readonly control: RoomControl) {}

  get roomId(): number {
    return this.entry.roomId;
  }

  get autoRecord(): boolean {
    return this.entry.autoRecord;
  }

  /** Numeric ids match the room id or the short id. */
  matches(id: number): boolean {
    return this.entry.roomId === id || this.state.shortId === id;
  }

  /** Applies state or stats from the actor; never blocks API readers. */
  apply(update: { state?: Partial<RoomState>; recordingStats?: RecordingStats; ioStats?: IoStats }): void {
    if (update.state) Object.assign(this.state, update.state);
    if (update.recordingStats) this.recordingStats = update.recordingStats;
    if (update.ioStats) this.ioStats = update.ioStats;
    this.version++;
  }

  /** Starts recording (brec: sets autoRecordForThisSession at once; recording begins asynchronously). */
  start(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    this.state.autoRecordForThisSession = true;
    this.version++;
    return this.control.command(this.roomId, 'start');
  }

  /** Stops recording until the stream ends (autoRecordForThisSession = false). */
  stop(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    this.state.autoRecordForThisSession = false;
    this.version++;
    return this.control.command(this.roomId, 'stop');
  }

  split(): Promise<void> {
    return this.disposed ? Promise.resolve() : this.control.command(this.roomId, 'split');
  }

  /** Re-fetches room info; resolves once the actor has done so. */
  refresh(): Promise<void> {
    return this.disposed ? Promise.resolve() : this.control.command(this.roomId, 'refresh');
  }
}
