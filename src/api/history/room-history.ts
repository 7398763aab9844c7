// The last hour of each room's bitrate, pace and written bytes, sampled by the server so the UI's charts survive a reload.
import type { Recorder } from '../../rooms/recorder.js';

export interface RoomHistoryOptions {
  /** Sampling interval (default 5000 ms). */
  intervalMs?: number;
  /** How far back a room's ring reaches (default one hour). */
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

/**
 * A fixed ring per room: typed arrays, so 1000 rooms at one sample per 5 s for an hour hold about 20 MB, and a sample is
 * three stores with no allocation. Rooms are keyed by objectId, so a removed and re-added room starts empty.
 */
class Ring {
  readonly t: Float64Array;
  /*
   * A column is allocated on its first value other than an idle room's (0 Mbps, NaN pace, 0 bytes): thousands of
   * rooms that never record keep only their timestamps (issue 40: an idle room costs almost nothing).
   */
  private mbps: Float32Array | null = null;
  private pace: Float32Array | null = null;
  private bytes: Float64Array | null = null;
  private next = 0;
  private size = 0;

  constructor(readonly objectId: string, readonly roomId: number, capacity: number) {
    this.t = new Float64Array(capacity);
  }

  push(t: number, mbps: number, pace: number, bytes: number): void {
    const i = this.next;
    const cap = this.t.length;
    this.t[i] = t;
    if (mbps !== 0) this.mbps ??= new Float32Array(cap);
    if (!Number.isNaN(pace)) this.pace ??= new Float32Array(cap).fill(Number.NaN);
    if (bytes !== 0) this.bytes ??= new Float64Array(cap);
    if (this.mbps) this.mbps[i] = mbps;
    if (this.pace) this.pace[i] = pace;
    if (this.bytes) this.bytes[i] = bytes;
    this.next = (i + 1) % this.t.length;
    this.size = Math.min(this.size + 1, this.t.length);
  }

  series(since: number): RoomHistorySeries {
    const out: RoomHistorySeries = { objectId: this.objectId, roomId: this.roomId, t: [], mbps: [], pace: [], bytes: [] };
    const cap = this.t.length;
    for (let k = 0; k < this.size; k++) {
      const i = (this.next - this.size + k + cap) % cap;
      if (this.t[i] < since) continue;
      out.t.push(this.t[i]);
      out.mbps.push(this.mbps ? round3(this.mbps[i]!) : 0);
      out.pace.push(this.pace && Number.isFinite(this.pace[i]) ? round3(this.pace[i]!) : null);
      out.bytes.push(this.bytes ? this.bytes[i]! : 0);
    }
    return out;
  }
}

export class RoomHistory {
  readonly intervalMs: number;
  readonly spanMs: number;
  private readonly rings = new Map<string, Ring>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly recorder: Recorder, options: RoomHistoryOptions = {}) {
    this.intervalMs = options.intervalMs ?? 5000;
    this.spanMs = options.spanMs ?? 3_600_000;
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
  }

  /** One sample of every room: ioStats.networkMbps, recordingStats.durationRatio and totalOutputBytes. */
  sample(now = Date.now()): void {
    const capacity = Math.ceil(this.spanMs / this.intervalMs) + 1;
    const seen = new Set<string>();
    for (const room of this.recorder.rooms) {
      seen.add(room.objectId);
      let ring = this.rings.get(room.objectId);
      if (!ring) this.rings.set(room.objectId, (ring = new Ring(room.objectId, room.roomId, capacity)));
      const mbps = room.ioStats.networkMbps;
      ring.push(now, Number.isFinite(mbps) ? mbps : 0, room.recordingStats.durationRatio, room.recordingStats.totalOutputBytes);
    }
    for (const id of this.rings.keys()) if (!seen.has(id)) this.rings.delete(id);
  }

  /** The samples of the last hour, for one room id or all rooms. */
  series(roomId: number | null, now = Date.now()): RoomHistorySeries[] {
    const since = now - this.spanMs;
    return [...this.rings.values()].filter((r) => roomId === null || r.roomId === roomId).map((r) => r.series(since));
  }
}
