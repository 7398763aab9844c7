// The main-thread side of one room: its config entry, the mirror of its actor's state and stats, and its commands.
import { randomUUID } from 'node:crypto';
import type { RoomConfigEntry } from '../config/store.js';
import type { RoomChanges } from './room-changes.js';
import {
  emptyIoStats, emptyRecordingStats, initialRoomState,
  type IoStats, type RecordingStats, type RoomCommand, type RoomState, type SessionGap,
} from './protocol.js';

/** How a room reaches its actor; implemented by the supervisor. */
export interface RoomControl {
  command(roomId: number, command: RoomCommand): Promise<void>;
}

/*
 * An idle room shares these (frozen: nothing on the main thread mutates a room's stats; updates replace them), so
 * 5000 idle rooms hold no stats objects of their own.
 */
const IDLE_RECORDING_STATS: RecordingStats = Object.freeze(emptyRecordingStats());
const IDLE_IO_STATS: IoStats = Object.freeze(emptyIoStats());
const NO_GAPS = Object.freeze([]) as unknown as SessionGap[];

export class Room {
  /** Regenerated on every start and never saved, as in brec. crypto.randomUUID, not nanoid: the API needs a UUID. */
  readonly objectId: string = randomUUID();
  state: RoomState = { ...initialRoomState(), sessionGaps: NO_GAPS };
  recordingStats: RecordingStats = IDLE_RECORDING_STATS;
  ioStats: IoStats = IDLE_IO_STATS;
  /** Set once the room was removed; commands become no-ops, as in brec. */
  disposed = false;
  /** Bumped with every change to the mirror (state or stats): the API's cached answers compare it, not the fields. */
  version = 0;

  /** `changes`: the recorder's feed, told of every change of this room (absent for placeholders that never change). */
  constructor(readonly entry: RoomConfigEntry, private readonly control: RoomControl, private readonly changes?: RoomChanges) {}

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

  /**
   * What a start or stop just asked for, until the room's thread reports the same value. Why: the thread may report
   * autoRecordForThisSession from before it saw the command (its first full state, a stream ending), and a mirror
   * that took that report would flip back for a moment after the API had answered with the new value.
   */
  private intent: boolean | null = null;

  /** Applies state or stats from the actor; never blocks API readers. Only real changes are announced. */
  apply(update: { state?: Partial<RoomState>; recordingStats?: RecordingStats; ioStats?: IoStats }): void {
    if (update.state && this.intent !== null && update.state.autoRecordForThisSession !== undefined) {
      if (update.state.autoRecordForThisSession === this.intent) this.intent = null;
      else {
        const { autoRecordForThisSession: _stale, ...rest } = update.state;
        update = { ...update, state: rest };
      }
    }
    if (update.state) {
      const state = this.state as unknown as Record<string, unknown>;
      let keys: string[] | null = null;
      for (const [k, v] of Object.entries(update.state)) {
        if (state[k] === v) continue;
        state[k] = v;
        (keys ??= []).push(k);
      }
      if (keys) this.changes?.emit(this, { kind: 'state', keys });
    }
    if (update.recordingStats) this.recordingStats = update.recordingStats;
    if (update.ioStats) this.ioStats = update.ioStats;
    this.version++;
    if (update.recordingStats || update.ioStats) this.changes?.emit(this, { kind: 'stats' });
  }

  /** The room is idle again (its actor died): stats back to the shared zeros. */
  resetStats(): void {
    this.intent = null;
    this.apply({ recordingStats: IDLE_RECORDING_STATS, ioStats: IDLE_IO_STATS });
  }

  /** The config entry changed (autoRecord, or the real room id learned): listeners hear of it. */
  entryChanged(keys: readonly ('roomId' | 'autoRecord')[]): void {
    this.version++;
    this.changes?.emit(this, { kind: 'state', keys });
  }

  /** Starts recording (brec: sets autoRecordForThisSession at once; recording begins asynchronously). */
  start(): Promise<void> {
    return this.ask(true, 'start');
  }

  /** Stops recording until the stream ends (autoRecordForThisSession = false). */
  stop(): Promise<void> {
    return this.ask(false, 'stop');
  }

  private ask(autoRecordForThisSession: boolean, command: 'start' | 'stop'): Promise<void> {
    if (this.disposed) return Promise.resolve();
    this.intent = null;
    this.apply({ state: { autoRecordForThisSession } });
    this.intent = autoRecordForThisSession;
    return this.control.command(this.roomId, command).catch((err: unknown) => {
      // The thread never took it (it died, or the room has no actor): its next report is the truth again.
      if (this.intent === autoRecordForThisSession) this.intent = null;
      throw err;
    });
  }

  split(): Promise<void> {
    return this.disposed ? Promise.resolve() : this.control.command(this.roomId, 'split');
  }

  /** Re-fetches room info; resolves once the actor has done so. */
  refresh(): Promise<void> {
    return this.disposed ? Promise.resolve() : this.control.command(this.roomId, 'refresh');
  }
}
