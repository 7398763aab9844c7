// A spin lock in the limiter's shared cells: the sliding window and the queue change a few cells together.
import { LOCK } from './api-limiter-cells.js';

/*
 * Why a spin lock and not lock-free updates: a grant writes the ring and the call counter, and leaving the queue
 * recomputes its head from many slots; each is a few dozen loads under the lock, never an await. A thread that dies
 * while holding it (a worker terminated mid-section) would block every other one, so a lock older than
 * STALE_LOCK_MS is taken over.
 */
const STALE_LOCK_MS = 1000;

export function withLock<T>(cells: BigInt64Array, fn: () => T): T {
  for (let spins = 0; ; spins++) {
    const now = BigInt(Date.now());
    const held = Atomics.compareExchange(cells, LOCK, 0n, now);
    if (held === 0n) break;
    if (now - held > BigInt(STALE_LOCK_MS) && Atomics.compareExchange(cells, LOCK, held, now) === held) break;
    // Another thread is inside a section of a few microseconds: yield the core now and then.
    if (spins % 64 === 63) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 0);
  }
  try {
    return fn();
  } finally {
    Atomics.store(cells, LOCK, 0n);
  }
}
