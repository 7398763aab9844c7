// Monotonic per-room counters derived from the main thread's mirror, events and log lines; rooms removed are forgotten.
import type { RecorderEvent } from '../../events/types.js';
import type { Room } from '../../rooms/room.js';

export interface RoomTotals {
  inputBytes: number;
  outputBytes: number;
  files: number;
  sessions: number;
  reconnects: number;
  gaps: number;
}

interface Track extends RoomTotals {
  /** Session totals seen last: a smaller value means the stats were reset (a new session). */
  lastInput: number;
  lastOutput: number;
  baseInput: number;
  baseOutput: number;
}

const ENDED = /^stream connection ended: (\w+)/;

const fresh = (): Track => ({ inputBytes: 0, outputBytes: 0, files: 0, sessions: 0, reconnects: 0, gaps: 0, lastInput: 0, lastOutput: 0, baseInput: 0, baseOutput: 0 });

export class RoomCounters {
  private readonly rooms = new Map<number, Track>();

  private track(roomId: number): Track {
    let t = this.rooms.get(roomId);
    if (!t) this.rooms.set(roomId, (t = fresh()));
    return t;
  }

  /**
   * Folds the session totals of rooms whose stats changed into lifetime totals. Called every second and at each
   * scrape; bytes counted after the last sample of a session and before its reset are lost (at most one stats interval).
   */
  sample(rooms: Iterable<Room>): void {
    for (const room of rooms) {
      const { totalInputBytes: input, totalOutputBytes: output } = room.recordingStats;
      // An idle room has nothing to fold and keeps no track (get() answers zeros).
      if (room.disposed || (input === 0 && output === 0 && !this.rooms.has(room.roomId))) continue;
      const t = this.track(room.roomId);
      if (input < t.lastInput) t.baseInput += t.lastInput;
      if (output < t.lastOutput) t.baseOutput += t.lastOutput;
      t.lastInput = input;
      t.lastOutput = output;
      t.inputBytes = t.baseInput + input;
      t.outputBytes = t.baseOutput + output;
    }
  }

  /** Bounded cardinality: a removed room's series disappear with it. */
  forget(roomId: number): void {
    this.rooms.delete(roomId);
  }

  onEvent(event: RecorderEvent): void {
    if (event.EventType === 'FileOpening') this.track(event.EventData.RoomId).files++;
    if (event.EventType === 'SessionStarted') this.track(event.EventData.RoomId).sessions++;
  }

  /**
   * A room's stream connection ended without a stop: liverec reconnects (a reconnect); when it ended on an error
   * or a repair-system disconnect, media was lost or cut there (a gap).
   */
  onLog(log: Record<string, unknown>): void {
    if (typeof log.RoomId !== 'number' || typeof log['@mt'] !== 'string') return;
    const m = ENDED.exec(log['@mt']);
    if (!m || m[1] === 'stopped') return;
    const t = this.track(log.RoomId);
    t.reconnects++;
    if (m[1] === 'error' || m[1] === 'disconnect') t.gaps++;
  }

  get(roomId: number): RoomTotals {
    return this.rooms.get(roomId) ?? fresh();
  }
}
