// One API limiter for every room in every thread: a shared pause (after 412/-352) and call spacing, in a SharedArrayBuffer.
import { BiliErrorCode, BilibiliError } from './errors.js';

/*
 * Why a SharedArrayBuffer and not a main-thread arbiter: rooms run in worker threads, and every API
 * call must see a pause another thread set a moment ago. Two 64-bit words updated with Atomics give
 * that without a round trip through the main thread (which may be busy) and without any lock:
 *   [0] pauseUntil  epoch ms before which no call may be made (raised with a CAS loop, never lowered by a trip)
 *   [1] tat         GCRA "theoretical arrival time": calls are spaced `spacingMs` apart, with `burst`
 *                   calls allowed back to back. A caller reserves its slot with one CAS and sleeps until it.
 * The main thread creates the limiter and hands `toShared()` to each worker (workerData or postMessage);
 * the worker calls `ApiLimiter.fromShared()` / `setProcessLimiter()`. Date.now() is the clock: it is the same
 * wall clock in every thread.
 */

export interface ApiLimiterShared {
  buffer: SharedArrayBuffer;
  spacingMs: number;
  burst: number;
}

export interface ApiLimiterOptions {
  /** Minimum distance between calls once the burst is used up (default 100 ms: 500 rooms take ~50 s). */
  spacingMs?: number;
  /** Calls allowed back to back after a quiet period (default 5). */
  burst?: number;
}

import { CALLS, CELLS, GRANT, PAUSE, PAUSES, SPACING, TAT, WAITED } from './api-limiter-cells.js';
import { abortableSleep, ClusterGrant } from './cluster-grant.js';

export class ApiLimiter {
  private readonly cells: BigInt64Array;
  private readonly grant: ClusterGrant;

  private constructor(private readonly shared: ApiLimiterShared) {
    this.cells = new BigInt64Array(shared.buffer);
    this.grant = new ClusterGrant(this.cells);
  }

  static create(options: ApiLimiterOptions = {}): ApiLimiter {
    const spacingMs = Math.max(0, options.spacingMs ?? 100);
    const burst = Math.max(1, Math.floor(options.burst ?? 5));
    const limiter = new ApiLimiter({ buffer: new SharedArrayBuffer(8 * CELLS), spacingMs, burst });
    Atomics.store(limiter.cells, GRANT, -1n);
    return limiter;
  }

  /** Attaches to a limiter created in another thread. */
  static fromShared(shared: ApiLimiterShared): ApiLimiter {
    return new ApiLimiter(shared);
  }

  /** Structured-clone-safe handle; the buffer stays shared, not copied. */
  toShared(): ApiLimiterShared {
    return this.shared;
  }

  /** Epoch ms until which calls are paused (0 or a past time when not paused). */
  pausedUntil(): number {
    return Number(Atomics.load(this.cells, PAUSE));
  }

  /** Pauses every call in every thread for `ms` from now (never shortens a longer pause). */
  pause(ms: number, now = Date.now()): void {
    const until = BigInt(Math.round(now + ms));
    for (;;) {
      const cur = Atomics.load(this.cells, PAUSE);
      if (cur >= until) return;
      if (Atomics.compareExchange(this.cells, PAUSE, cur, until) === cur) {
        if (this.cells.length > PAUSES) Atomics.add(this.cells, PAUSES, 1n);
        return;
      }
    }
  }

  /** Ends a pause early (tests, operator action). */
  resume(): void {
    Atomics.store(this.cells, PAUSE, 0n);
  }

  /** Throws API_PAUSED when a pause is active. */
  checkPaused(now = Date.now()): void {
    const until = this.pausedUntil();
    if (until > now) {
      throw new BilibiliError(
        BiliErrorCode.ApiPaused,
        `API calls are paused for another ${Math.ceil((until - now) / 1000)} s after a risk-control answer (412/-352)`,
        { retryAfterMs: until - now },
      );
    }
  }

  /** Milliseconds the caller must wait for its slot; reserves the slot. */
  reserve(now = Date.now()): number {
    const t = BigInt(Math.round(now));
    const spacing = BigInt(Math.round(this.spacingMs()));
    const tolerance = spacing * BigInt(this.shared.burst - 1);
    for (;;) {
      const tat = Atomics.load(this.cells, TAT);
      const base = tat > t ? tat : t;
      if (Atomics.compareExchange(this.cells, TAT, tat, base + spacing) === tat) {
        const wait = base - tolerance - t;
        if (this.cells.length > WAITED) {
          Atomics.add(this.cells, CALLS, 1n);
          if (wait > 0n) Atomics.add(this.cells, WAITED, wait);
        }
        return wait > 0n ? Number(wait) : 0;
      }
    }
  }

  /** The spacing between calls now in force (ms). */
  spacingMs(): number {
    const set = this.cells.length > SPACING ? Number(Atomics.load(this.cells, SPACING)) : 0;
    return set > 0 ? set : this.shared.spacingMs;
  }

  /** Sets the budget for every thread at once (ApiBudgetPerMinute changed); 0 = no spacing beyond 1 ms. */
  setBudgetPerMinute(perMinute: number): void {
    if (this.cells.length <= SPACING) return;
    Atomics.store(this.cells, SPACING, BigInt(Math.max(1, Math.round(perMinute > 0 ? 60_000 / perMinute : 1))));
  }

  /** Calls per minute the spacing allows. */
  budgetPerMinute(): number {
    return Math.round(60_000 / Math.max(1, this.spacingMs()));
  }

  /** Use so far: calls granted, total ms callers waited for a slot, pauses set (for /metrics and the UI). */
  usage(): { calls: number; waitedMs: number; pauses: number } {
    if (this.cells.length < CELLS) return { calls: 0, waitedMs: 0, pauses: 0 };
    return { calls: Number(Atomics.load(this.cells, CALLS)), waitedMs: Number(Atomics.load(this.cells, WAITED)), pauses: Number(Atomics.load(this.cells, PAUSES)) };
  }

  /**
   * Cluster mode (src/cluster/cluster-budget.ts): `grant` calls may be made from now on; a negative number ends
   * cluster mode. Tokens left from an earlier grant are replaced (they expire with their budget window).
   */
  setGrant(grant: number): void {
    this.grant.set(grant);
  }

  /** Cluster mode: tokens left (-1 outside cluster mode) and callers waiting for one. */
  grantState(): { left: number; waiting: number } {
    return this.grant.state();
  }

  /** Adds tokens granted by the cluster's budget. */
  addGrant(tokens: number): void {
    this.grant.add(tokens);
  }

  /** Waits for this call's slot; rejects with API_PAUSED if a pause is active before or after the wait. */
  async acquire(signal?: AbortSignal): Promise<void> {
    this.checkPaused();
    await this.grant.take(() => this.checkPaused(), signal);
    const wait = this.reserve();
    if (wait > 0) await abortableSleep(wait, signal);
    this.checkPaused();
  }
}

let processLimiter: ApiLimiter | null = null;

/** The limiter clients in this thread use by default; a worker installs the shared one with setProcessLimiter. */
export function getProcessLimiter(): ApiLimiter {
  processLimiter ??= ApiLimiter.create();
  return processLimiter;
}

export function setProcessLimiter(limiter: ApiLimiter | ApiLimiterShared): ApiLimiter {
  processLimiter = limiter instanceof ApiLimiter ? limiter : ApiLimiter.fromShared(limiter);
  return processLimiter;
}
