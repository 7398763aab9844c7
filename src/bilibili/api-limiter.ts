// One API budget for every room in every thread: a shared pause (after 412/-352), a learned rate and a priority queue.
import { BiliErrorCode, BilibiliError } from './errors.js';
import { CALLS, CELLS, GRANT, PAUSE, PAUSES, WAITED } from './api-limiter-cells.js';
import { CallWindow } from './api-call-window.js';
import type { ApiPriority } from './api-priority.js';
import { HEARTBEAT_MS, WaitQueue } from './api-wait-queue.js';
import { abortableSleep, ClusterGrant } from './cluster-grant.js';
import { withLock } from './cells-lock.js';

/*
 * Why a SharedArrayBuffer and not a main-thread arbiter: rooms run in worker threads, and every API call must see a
 * pause another thread set a moment ago and its place in one queue. Cells updated with Atomics (and a spin lock for
 * the few that change together, src/bilibili/cells-lock.ts) give that without a round trip through the main thread
 * (which may be busy). The main thread creates the limiter and hands `toShared()` to each worker (workerData or
 * postMessage); the worker calls `ApiLimiter.fromShared()` / `setProcessLimiter()`. Date.now() is the clock: it is
 * the same wall clock in every thread.
 *   - the budget: at most `rate` calls in any sliding minute, the rate learned from the answers (api-call-window.ts);
 *   - the queue: callers wait by priority, then by arrival (api-wait-queue.ts, api-priority.ts);
 *   - the pause: after a risk answer no call is made until `pauseUntil` (raised with a CAS loop, never lowered).
 */

export interface ApiLimiterShared {
  buffer: SharedArrayBuffer;
}

export interface ApiLimiterOptions {
  /** The ceiling of the rate (ApiBudgetPerMinute): calls in any minute; 0 = no budget. Default 57 (docs/scale.md). */
  perMinute?: number;
  /** Older form: the distance between calls (60 000 / perMinute); 0 = no budget. */
  spacingMs?: number;
}

export class ApiLimiter {
  private readonly cells: BigInt64Array;
  private readonly grant: ClusterGrant;
  private readonly window: CallWindow;
  private readonly queue: WaitQueue;

  private constructor(private readonly shared: ApiLimiterShared) {
    this.cells = new BigInt64Array(shared.buffer);
    this.grant = new ClusterGrant(this.cells);
    this.window = new CallWindow(this.cells);
    this.queue = new WaitQueue(this.cells);
  }

  static create(options: ApiLimiterOptions = {}): ApiLimiter {
    const perMinute = options.perMinute ?? (options.spacingMs !== undefined ? (options.spacingMs > 0 ? 60_000 / options.spacingMs : 0) : 57);
    const limiter = new ApiLimiter({ buffer: new SharedArrayBuffer(8 * CELLS) });
    Atomics.store(limiter.cells, GRANT, -1n);
    limiter.window.setCeiling(perMinute);
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
        Atomics.add(this.cells, PAUSES, 1n);
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

  /** Sets the ceiling for every thread at once (ApiBudgetPerMinute changed); 0 = no budget. */
  setBudgetPerMinute(perMinute: number): void {
    this.window.setCeiling(perMinute);
  }

  /** The ceiling: ApiBudgetPerMinute (0 = none). */
  budgetPerMinute(): number {
    return this.window.ceiling();
  }

  /** The learned rate in force: calls in any minute (0 = no budget). */
  ratePerMinute(): number {
    return this.window.rate();
  }

  /** The service's answer to a call: a good one lets the rate grow, a risk answer (412/-352) halves it. */
  answered(ok: boolean): void {
    if (ok) this.window.good();
    else this.window.risk();
  }

  /**
   * Use so far: calls granted, total ms callers waited for their turn, pauses set, cuts of the rate, calls in the
   * last minute and callers waiting now per priority (for /metrics and the UI).
   */
  usage(now = Date.now()): { calls: number; waitedMs: number; pauses: number; cuts: number; lastMinute: number; queued: Record<ApiPriority, number> } {
    return {
      calls: Number(Atomics.load(this.cells, CALLS)), waitedMs: Number(Atomics.load(this.cells, WAITED)), pauses: Number(Atomics.load(this.cells, PAUSES)),
      cuts: this.window.cuts(), lastMinute: this.window.lastMinute(now), queued: this.queue.queued(),
    };
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

  /**
   * Waits for this call's turn: behind every caller of a higher priority and every earlier one of the same, and until
   * the minute's budget has room; resolves with the grant's number for done(). Rejects with API_PAUSED if a pause is active before or after the wait, and with the
   * signal's reason when it aborts. Cluster mode: a token of the cluster's budget is taken first.
   */
  async acquire(signal?: AbortSignal, priority: ApiPriority = 'detect'): Promise<number> {
    this.checkPaused();
    await this.grant.take(() => this.checkPaused(), signal);
    const since = Date.now();
    let granted = -1;
    let place = this.queue.enter(priority, since);
    try {
      for (;;) {
        if (!place) {
          // Every slot taken (thousands waiting): look again shortly.
          await abortableSleep(50, signal);
          place = this.queue.enter(priority);
          continue;
        }
        this.checkPaused();
        const seen = this.queue.generation();
        const now = Date.now();
        const where = this.queue.position(place.slot, place.key, now);
        if (where === 'lost') {
          place = this.queue.enter(priority, now, place.key);
          continue;
        }
        let wait = HEARTBEAT_MS;
        const held = priority !== 'start' && priority !== 'detect' && this.window.ceiling() > 0 ? since + LOW_PRIORITY_HOLD_MS - now : 0;
        if (where === 'head' && held > 0) {
          wait = held;
        } else if (where === 'head') {
          wait = withLock(this.cells, () => {
            const w = this.window.take(now);
            if (w === 0) granted = this.window.granted() - 1;
            return w;
          });
          if (wait === 0) break;
        }
        await this.queue.sleep(seen, Math.min(wait, HEARTBEAT_MS), signal);
      }
    } finally {
      if (place) this.queue.leave(place.slot, place.key);
    }
    Atomics.add(this.cells, WAITED, BigInt(Date.now() - since));
    this.checkPaused();
    return granted;
  }

  /**
   * The call `grant` (what acquire returned) has its answer, or failed: it counts in the window until a minute from
   * now (api-call-window.ts answeredAt). A call never reported counts from its grant.
   */
  done(grant: number): void {
    this.window.answeredAt(grant);
  }
}

/*
 * A danmaku token, an origin look or an info refresh waits this long in the queue even with budget to spare, so that
 * starts asked for at the same moment go first: when rooms go live together, the first one's danmaku token must not
 * take a place in the minute that the next one's stream needs (issue 48). A second is nothing to them. Detection is
 * not held: the per-room fallback checks run three at a time, and a start needs its detection first.
 */
export const LOW_PRIORITY_HOLD_MS = 1000;

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
