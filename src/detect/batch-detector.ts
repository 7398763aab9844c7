// One live detector per process: every monitored room's status through batch calls (get_status_info_by_uids), evenly spaced.
import type { BatchRoomStatus } from '../bilibili/batch-status.js';

/*
 * Why a fixed call rate and not one call per room per TimingCheckInterval: a batch call costs the service the
 * same for 1 uid or 500, and risk control counts calls per IP. So detection takes a fixed share of the API budget
 * (one call every DETECT_SPACING_MS, 10 a minute) and walks the rooms BATCH_UIDS at a time: every room is seen
 * every ceil(N / 500) × 6 s — within 60 s up to 5000 rooms — and never less often than TimingCheckInterval.
 */
export const BATCH_UIDS = 500;
export const DETECT_SPACING_MS = 6000;

export interface MonitoredRoom {
  roomId: number;
  uid: number;
}

export interface BatchDetectorOptions {
  /** One batch call (through the process's API budget). */
  fetch: (uids: number[]) => Promise<Map<number, BatchRoomStatus>>;
  /** The rooms to watch whose uid is known. */
  rooms: () => MonitoredRoom[];
  onStatus: (roomId: number, status: BatchRoomStatus) => void;
  /** The batch call failed: these rooms fall back to a per-room check this round. */
  onBatchFailed: (roomIds: number[], err: Error) => void;
  /** TimingCheckInterval in ms: the longest a room may go unchecked. */
  intervalMs: () => number;
  spacingMs?: number;
  batchSize?: number;
  /** Learns the uids of rooms that have none yet (one call for many); true when it made a call this tick. */
  learn?: () => Promise<boolean>;
}

export class BatchDetector {
  /** Batch calls made, and how many failed (for metrics and tests). */
  calls = 0;
  failures = 0;
  private timer: NodeJS.Timeout | null = null;
  private cursor = 0;
  /** Rooms never checked yet: the next call takes them first (rooms added at once share calls). */
  private readonly unseen = new Set<number>();
  private running = false;
  private stopped = false;

  constructor(private readonly options: BatchDetectorOptions) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** A room was added or learned its uid: it is checked with the next call, soon, together with the others added now. */
  watch(roomId: number): void {
    this.unseen.add(roomId);
    if (!this.running && this.timer && !this.kicked) {
      this.kicked = true;
      clearTimeout(this.timer);
      this.schedule(Math.min(1000, this.untilNext()));
    }
  }

  /** The room left the list: it is no longer owed a first check. */
  unwatch(roomId: number): void {
    this.unseen.delete(roomId);
  }

  /** The room was just checked another way (getRoomBaseInfo carries the live flag): no quick first check needed. */
  seen(roomId: number): void {
    this.unseen.delete(roomId);
  }

  private kicked = false;
  private nextAt = 0;

  private untilNext(): number {
    return Math.max(0, this.nextAt - Date.now());
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.nextAt = Date.now() + ms;
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref?.();
  }

  private spacing(count: number): number {
    const size = this.options.batchSize ?? BATCH_UIDS;
    const spacing = this.options.spacingMs ?? DETECT_SPACING_MS;
    const batches = Math.max(1, Math.ceil(count / size));
    // Never slower than one full round per TimingCheckInterval.
    return Math.max(1000, Math.min(spacing, Math.floor(this.options.intervalMs() / batches)));
  }

  /** The next batch: rooms never checked first, then the next slice of the round. */
  private nextBatch(rooms: MonitoredRoom[]): MonitoredRoom[] {
    const size = this.options.batchSize ?? BATCH_UIDS;
    const batch: MonitoredRoom[] = [];
    const taken = new Set<number>();
    if (this.unseen.size > 0) {
      for (const r of rooms) {
        if (batch.length >= size) break;
        if (this.unseen.has(r.roomId)) {
          batch.push(r);
          taken.add(r.roomId);
        }
      }
    }
    for (let n = 0; batch.length < size && n < rooms.length; n++) {
      if (this.cursor >= rooms.length) this.cursor = 0;
      const r = rooms[this.cursor++]!;
      if (!taken.has(r.roomId)) {
        batch.push(r);
        taken.add(r.roomId);
      }
    }
    return batch;
  }

  private async tick(): Promise<void> {
    this.kicked = false;
    if (this.options.learn) {
      this.running = true;
      const called = await this.options.learn().catch(() => true);
      this.running = false;
      // The rooms just learned are checked by the next call, a second later.
      if (called) return this.schedule(1000);
    }
    const rooms = this.options.rooms();
    if (rooms.length === 0) return this.schedule(this.options.spacingMs ?? DETECT_SPACING_MS);
    const batch = this.nextBatch(rooms);
    this.running = true;
    try {
      this.calls++;
      const answer = await this.options.fetch([...new Set(batch.map((r) => r.uid))]);
      for (const r of batch) {
        this.unseen.delete(r.roomId);
        const status = answer.get(r.uid);
        if (status) this.options.onStatus(r.roomId, status);
      }
    } catch (err) {
      this.failures++;
      for (const r of batch) this.unseen.delete(r.roomId);
      this.options.onBatchFailed(batch.map((r) => r.roomId), err as Error);
    } finally {
      this.running = false;
    }
    const more = this.unseen.size > 0 && this.options.rooms().some((r) => this.unseen.has(r.roomId));
    this.schedule(more ? 1000 : this.spacing(rooms.length));
  }
}
