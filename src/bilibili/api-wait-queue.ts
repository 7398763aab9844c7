// The budget's queue, shared by every thread: callers wait in order of priority, then of arrival.
import { GEN, HEAD, HEAD_SLOT, QUEUED, SLOT_COUNT, SLOT_HIGH, SLOTS, TICKET } from './api-limiter-cells.js';
import { API_PRIORITIES, type ApiPriority, priorityLevel } from './api-priority.js';
import { withLock } from './cells-lock.js';

/*
 * Why a table of slots and a published head: a caller in any thread must know whether it is next without asking the
 * main thread. Each waiter holds a slot with its key and a heartbeat; the head's key and slot are kept in two cells,
 * recomputed under the lock when the head leaves, so "am I next?" is one load.
 * The key is the arrival time plus LEVEL_SPAN_MS per priority level (smaller goes first), then the level and a
 * ticket. So a start goes before any detection call that arrived up to 30 s before it, and no call waits behind
 * newer ones of a higher priority for longer than that: a busy level delays the lower ones, it cannot starve them.
 * Arrival order within a level is what makes rooms fair: a room reconnecting in a loop takes a new key for every
 * call and waits behind every room that asked before it.
 * A waiter refreshes its heartbeat at least every HEARTBEAT_MS; a slot silent for STALE_MS (its thread died) is freed.
 */
export const HEARTBEAT_MS = 1000;
const STALE_MS = 15_000;
export const LEVEL_SPAN_MS = 10_000;
/** key = (arrival ms + level × LEVEL_SPAN_MS) << 16 | level << 12 | ticket (12 bits). */
const LEVEL_SHIFT = 12n;
const TIME_SHIFT = 16n;

type WaitAsync = (cells: BigInt64Array, index: number, value: bigint, timeoutMs: number) => { async: boolean; value: Promise<string> | string };

export class WaitQueue {
  constructor(private readonly cells: BigInt64Array) {}

  /**
   * Takes a slot for a caller of priority `p` (keeping `key` when it lost its slot while its thread was too busy to
   * beat); the slot and the key, or null when every slot is taken (the caller retries).
   */
  enter(p: ApiPriority, now = Date.now(), keep?: bigint): { slot: number; key: bigint } | null {
    const level = priorityLevel(p);
    return withLock(this.cells, () => {
      const high = Number(Atomics.load(this.cells, SLOT_HIGH));
      let slot = -1;
      for (let i = 0; i < SLOT_COUNT; i++) {
        if (Atomics.load(this.cells, SLOTS + 2 * i) === 0n) {
          slot = i;
          break;
        }
      }
      if (slot < 0) return null;
      const ticket = Atomics.add(this.cells, TICKET, 1n) & 0xfffn;
      const key = keep ?? ((BigInt(now + level * LEVEL_SPAN_MS) << TIME_SHIFT) | (BigInt(level) << LEVEL_SHIFT) | ticket);
      Atomics.store(this.cells, SLOTS + 2 * slot, key);
      Atomics.store(this.cells, SLOTS + 2 * slot + 1, BigInt(now));
      if (slot >= high) Atomics.store(this.cells, SLOT_HIGH, BigInt(slot + 1));
      Atomics.add(this.cells, QUEUED + level, 1n);
      const head = Atomics.load(this.cells, HEAD);
      if (head === 0n || key < head) {
        Atomics.store(this.cells, HEAD, key);
        Atomics.store(this.cells, HEAD_SLOT, BigInt(slot));
      }
      return { slot, key };
    });
  }

  /**
   * Whether the caller holding `key` in `slot` is next ('lost' when its slot was freed as stale: it enters again);
   * refreshes its heartbeat, and frees the head's slot if its thread died.
   */
  position(slot: number, key: bigint, now = Date.now()): 'head' | 'waiting' | 'lost' {
    if (Atomics.load(this.cells, SLOTS + 2 * slot) !== key) return 'lost';
    Atomics.store(this.cells, SLOTS + 2 * slot + 1, BigInt(now));
    const headSlot = Number(Atomics.load(this.cells, HEAD_SLOT));
    if (headSlot === slot && Atomics.load(this.cells, HEAD) === key) return 'head';
    const beat = Number(Atomics.load(this.cells, SLOTS + 2 * headSlot + 1));
    if (Atomics.load(this.cells, HEAD) !== 0n && now - beat > STALE_MS) {
      withLock(this.cells, () => {
        if (Number(Atomics.load(this.cells, HEAD_SLOT)) === headSlot && now - Number(Atomics.load(this.cells, SLOTS + 2 * headSlot + 1)) > STALE_MS) {
          this.free(headSlot);
          this.recomputeHead(now);
        }
      });
      this.wake();
    }
    return 'waiting';
  }

  /** Gives the slot back; the next caller is told. */
  leave(slot: number, key: bigint, now = Date.now()): void {
    withLock(this.cells, () => {
      if (Atomics.load(this.cells, SLOTS + 2 * slot) !== key) return;
      this.free(slot);
      if (Number(Atomics.load(this.cells, HEAD_SLOT)) === slot) this.recomputeHead(now);
    });
    this.wake();
  }

  /** Callers waiting now, per priority. */
  queued(): Record<ApiPriority, number> {
    const out = {} as Record<ApiPriority, number>;
    API_PRIORITIES.forEach((p, i) => (out[p] = Math.max(0, Number(Atomics.load(this.cells, QUEUED + i)))));
    return out;
  }

  /**
   * Sleeps until the queue or the rate changes (GEN moves from `seen`) or `ms` pass; rejects when `signal` aborts.
   * A timer runs beside the wait: a pending Atomics.waitAsync does not keep a thread's event loop alive.
   */
  sleep(seen: bigint, ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const waitAsync = (Atomics as unknown as { waitAsync?: WaitAsync }).waitAsync;
    return new Promise<void>((resolve, reject) => {
      let done = false;
      const finish = (err?: unknown): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (err !== undefined) reject(err);
        else resolve();
      };
      const onAbort = (): void => finish(signal!.reason);
      const timer = setTimeout(() => finish(), Math.max(1, waitAsync ? ms : Math.min(ms, 50)));
      signal?.addEventListener('abort', onAbort, { once: true });
      if (!waitAsync) return;
      const waited = waitAsync(this.cells, GEN, seen, Math.max(1, ms));
      if (!waited.async) return finish();
      void (waited.value as Promise<string>).then(() => finish());
    });
  }

  generation(): bigint {
    return Atomics.load(this.cells, GEN);
  }

  private wake(): void {
    Atomics.add(this.cells, GEN, 1n);
    Atomics.notify(this.cells, GEN);
  }

  /** Under the lock. */
  private free(slot: number): void {
    const key = Atomics.load(this.cells, SLOTS + 2 * slot);
    if (key === 0n) return;
    Atomics.store(this.cells, SLOTS + 2 * slot, 0n);
    Atomics.sub(this.cells, QUEUED + Number((key >> LEVEL_SHIFT) & 0xfn), 1n);
  }

  /** Under the lock: the lowest key among live slots becomes the head (stale slots are freed on the way). */
  private recomputeHead(now: number): void {
    const high = Number(Atomics.load(this.cells, SLOT_HIGH));
    let best = 0n;
    let bestSlot = 0;
    let top = 0;
    for (let i = 0; i < high; i++) {
      const key = Atomics.load(this.cells, SLOTS + 2 * i);
      if (key === 0n) continue;
      if (now - Number(Atomics.load(this.cells, SLOTS + 2 * i + 1)) > STALE_MS) {
        this.free(i);
        continue;
      }
      top = i + 1;
      if (best === 0n || key < best) {
        best = key;
        bestSlot = i;
      }
    }
    Atomics.store(this.cells, SLOT_HIGH, BigInt(top));
    Atomics.store(this.cells, HEAD, best);
    Atomics.store(this.cells, HEAD_SLOT, BigInt(bestSlot));
  }
}
