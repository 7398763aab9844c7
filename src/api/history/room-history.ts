// The last hour of each room's bitrate, pace and written bytes, sampled by the server so the UI's charts survive a reload.
import type { Recorder } from '../../rooms/recorder.js';
import type { Room } from '../../rooms/room.js';

export interface RoomHistoryOptions {
  /** Sampling interval (default 5000 ms). */
  intervalMs?: number;
  /** How far back the samples reach (default one hour). */
  spanMs?: number;
}

/** Columns of one room's samples, oldest first; a null pace is "not measured" (brec's NaN). */
export interface RoomHistorySeries {
  objectId: string;
  roomId: number;
  t: number[];
  mbps: number[];
  pace: (number | null)[];
  bytes: number[];
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

/*
 * Why one shared clock and columns only for busy rooms: every room is sampled at the same instants, so the times are
 * kept once, and a room that has not recorded within the span has nothing but zeros to report. 5000 idle rooms thus
 * cost nothing here (per-room timestamp rings were 28 MB), and a sample touches only the rooms with columns plus
 * those whose stats changed since the last one (the recorder's change feed), never every room.
 */
class Columns {
  readonly mbps: Float32Array;
  readonly pace: Float32Array;
  readonly bytes: Float64Array;
  /** The sample count when this room last had a value other than an idle room's. */
  lastBusy = 0;

  constructor(capacity: number) {
    this.mbps = new Float32Array(capacity);
    this.pace = new Float32Array(capacity).fill(Number.NaN);
    this.bytes = new Float64Array(capacity);
  }
}

interface Values {
  mbps: number;
  pace: number;
  bytes: number;
}

function valuesOf(room: Room): Values {
  const mbps = room.ioStats.networkMbps;
  return { mbps: Number.isFinite(mbps) ? mbps : 0, pace: room.recordingStats.durationRatio, bytes: room.recordingStats.totalOutputBytes };
}

const idle = (v: Values): boolean => v.mbps === 0 && Number.isNaN(v.pace) && v.bytes === 0;

export class RoomHistory {
  readonly intervalMs: number;
  readonly spanMs: number;
  private readonly times: Float64Array;
  /** Samples taken so far; the newest is at (taken - 1) % capacity. */
  private taken = 0;
  private readonly columns = new Map<Room, Columns>();
  /** Rooms whose stats changed since the last sample (they may need columns). */
  private readonly changed = new Set<Room>();
  /** When rooms listed after the first interval were listed: their series start there. */
  private readonly listedAt = new WeakMap<Room, number>();
  private readonly off: () => void;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly recorder: Pick<Recorder, 'rooms' | 'changes'>, options: RoomHistoryOptions = {}) {
    this.intervalMs = options.intervalMs ?? 5000;
    this.spanMs = options.spanMs ?? 3_600_000;
    this.times = new Float64Array(Math.ceil(this.spanMs / this.intervalMs) + 1);
    // Rooms already busy when the history is made (the feed tells only of later changes).
    for (const room of recorder.rooms) if (!idle(valuesOf(room))) this.changed.add(room);
    this.off = recorder.changes.on((room, change) => {
      if (change.kind === 'stats') this.changed.add(room);
      // Rooms listed within the first interval (the recorder's start) count as listed from the first sample.
      else if (change.kind === 'added' && this.taken > 1) this.listedAt.set(room, Date.now());
      else if (change.kind === 'removed') {
        this.changed.delete(room);
        this.columns.delete(room);
      }
    });
  }

  /** Rooms holding columns now (busy within the span); every other room costs the history nothing. */
  get busyRooms(): number {
    return this.columns.size;
  }

  /** Starts sampling (idempotent); the first sample is taken at once. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    this.timer.unref();
    this.sample();
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.off();
  }

  /** One sample: ioStats.networkMbps, recordingStats.durationRatio and totalOutputBytes of every room that is not idle. */
  sample(now = Date.now()): void {
    const cap = this.times.length;
    const i = this.taken % cap;
    this.times[i] = now;
    for (const room of this.changed) {
      if (!this.columns.has(room) && !room.disposed && !idle(valuesOf(room))) this.columns.set(room, new Columns(cap));
    }
    this.changed.clear();
    for (const [room, c] of this.columns) {
      const v = valuesOf(room);
      c.mbps[i] = v.mbps;
      c.pace[i] = v.pace;
      c.bytes[i] = v.bytes;
      if (!idle(v)) c.lastBusy = this.taken;
      // A whole span of idle samples reads the same as no columns at all.
      else if (this.taken - c.lastBusy >= cap) this.columns.delete(room);
    }
    this.taken++;
  }

  /** The samples of the last hour, for one room id or all rooms. */
  series(roomId: number | null, now = Date.now()): RoomHistorySeries[] {
    const since = now - this.spanMs;
    const out: RoomHistorySeries[] = [];
    for (const room of this.recorder.rooms) {
      if (roomId === null || room.roomId === roomId) out.push(this.seriesOf(room, Math.max(since, this.listedAt.get(room) ?? -Infinity)));
    }
    return out;
  }

  private seriesOf(room: Room, since: number): RoomHistorySeries {
    const out: RoomHistorySeries = { objectId: room.objectId, roomId: room.roomId, t: [], mbps: [], pace: [], bytes: [] };
    const c = this.columns.get(room);
    const cap = this.times.length;
    const size = Math.min(this.taken, cap);
    for (let k = this.taken - size; k < this.taken; k++) {
      const i = k % cap;
      if (this.times[i]! < since) continue;
      out.t.push(this.times[i]!);
      out.mbps.push(c ? round3(c.mbps[i]!) : 0);
      out.pace.push(c && Number.isFinite(c.pace[i]) ? round3(c.pace[i]!) : null);
      out.bytes.push(c ? c.bytes[i]! : 0);
    }
    return out;
  }
}
