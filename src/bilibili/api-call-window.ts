// The budget's arithmetic: at most `rate` calls in any sliding minute, a rate learned from the service's answers.
import { CALLS, CEILING, CUTS, GEN, LAST_CUT, RATE, RING, RING_SIZE, TAT } from './api-limiter-cells.js';

/*
 * Why a sliding minute and not a token bucket: risk control counts calls per IP per minute, and a start wants the
 * budget the last minute left unused now, not spread over the next one. A bucket with burst B and rate R lets up to
 * B + R calls into a minute, so under a 60-a-minute threshold it must choose between a small burst (starts queue
 * ~1.2 s apart) and a low rate; the window spends exactly what the minute allows, whenever it is needed.
 *
 * The rate adapts (AIMD): every good answer adds RATE_STEP_MILLI, a risk answer (412/-352) halves it (once per
 * CUT_HOLD_MS: the calls in flight when risk control started answer 412 together), never below FLOOR_PER_MINUTE and
 * never above the ceiling (ApiBudgetPerMinute). MIN_SPACING_MS keeps even a full minute's budget from leaving as
 * one burst of simultaneous requests.
 */
export const WINDOW_MS = 60_000;
/** 0.25 calls a minute per good answer: from half of 50 back to 50 in 100 good answers (a few minutes of use). */
export const RATE_STEP_MILLI = 250n;
export const FLOOR_PER_MINUTE = 6;
export const CUT_HOLD_MS = 10_000;
export const MIN_SPACING_MS = 100;
/** Calls that may follow each other closer than MIN_SPACING_MS to catch up after a late wake-up (the spacing is a rate, not a gap). */
const SPACING_BURST = 5;

export class CallWindow {
  constructor(private readonly cells: BigInt64Array) {}

  ceiling(): number {
    return Number(Atomics.load(this.cells, CEILING));
  }

  /** Calls a minute allowed now (the learned rate, whole calls); 0 = no budget. */
  rate(): number {
    if (this.ceiling() <= 0) return 0;
    return Math.max(1, Math.floor(Number(Atomics.load(this.cells, RATE)) / 1000));
  }

  /** ApiBudgetPerMinute changed: a new ceiling starts the rate at it; the same ceiling keeps what was learned. */
  setCeiling(perMinute: number): void {
    const n = BigInt(Math.max(0, Math.round(perMinute)));
    if (Atomics.exchange(this.cells, CEILING, n) === n && Atomics.load(this.cells, RATE) > 0n) return;
    Atomics.store(this.cells, RATE, n * 1000n);
    this.wake();
  }

  /** Milliseconds until a call may go (0: it was granted now and counted as call number `granted() - 1`). Call under the lock. */
  take(now: number): number {
    const n = Number(Atomics.load(this.cells, CALLS));
    const ceiling = this.ceiling();
    if (ceiling > 0) {
      const rate = this.rate();
      // More calls a minute than the ring holds: the window shrinks in proportion (the same rate, a shorter memory).
      const count = Math.min(rate, RING_SIZE);
      const windowMs = WINDOW_MS * (count / rate);
      let wait = 0;
      const inWindow = this.timesSince(now - windowMs, n);
      if (inWindow.length >= count) {
        // A call's time is its grant, raised to its answer (answeredAt): the earliest ones must leave first.
        inWindow.sort((a, b) => a - b);
        wait = Math.max(wait, inWindow[inWindow.length - count]! + windowMs - now);
      }
      // The spacing as a GCRA schedule: a grant that came late (a busy thread woke late) does not push every later one back.
      const spacing = Math.min(MIN_SPACING_MS, WINDOW_MS / rate);
      const tat = Math.max(Number(Atomics.load(this.cells, TAT)), now);
      wait = Math.max(wait, tat - (SPACING_BURST - 1) * spacing - now);
      if (wait > 0) return Math.ceil(wait);
      Atomics.store(this.cells, TAT, BigInt(Math.round(tat + spacing)));
    }
    Atomics.store(this.cells, RING + (n % RING_SIZE), BigInt(now));
    Atomics.store(this.cells, CALLS, BigInt(n + 1));
    return 0;
  }

  /** Calls granted so far: the last grant is number granted() - 1. */
  granted(): number {
    return Number(Atomics.load(this.cells, CALLS));
  }

  /**
   * Call number `n` was answered at `now`: it counts in the window until a minute after that, not after its grant. So
   * the service never sees more than the rate within its minute however long a call took between grant and arrival
   * (a busy thread, signing, a slow connection): a later minute's calls leave only once this one has arrived.
   */
  answeredAt(n: number, now = Date.now()): void {
    if (n < 0 || this.granted() - n > RING_SIZE) return;
    const cell = RING + (n % RING_SIZE);
    const t = BigInt(now);
    for (;;) {
      const cur = Atomics.load(this.cells, cell);
      if (cur >= t || Atomics.compareExchange(this.cells, cell, cur, t) === cur) return;
    }
  }

  /** The times (grant, or answer once known) of the calls among the last RING_SIZE that are later than `after`. */
  private timesSince(after: number, n = this.granted()): number[] {
    const out: number[] = [];
    for (let i = Math.max(0, n - RING_SIZE); i < n; i++) {
      const t = Number(Atomics.load(this.cells, RING + (i % RING_SIZE)));
      if (t > after) out.push(t);
    }
    return out;
  }

  /** Calls granted or answered within the last minute (from the ring; exact up to RING_SIZE). */
  lastMinute(now = Date.now()): number {
    return this.timesSince(now - WINDOW_MS).length;
  }

  /** A good answer: the rate grows by one step, up to the ceiling. */
  good(): void {
    const ceil = Atomics.load(this.cells, CEILING) * 1000n;
    for (;;) {
      const cur = Atomics.load(this.cells, RATE);
      if (cur >= ceil) return;
      const next = cur + RATE_STEP_MILLI > ceil ? ceil : cur + RATE_STEP_MILLI;
      if (Atomics.compareExchange(this.cells, RATE, cur, next) === cur) return;
    }
  }

  /** A risk answer: the rate halves, once per CUT_HOLD_MS; true when this answer cut it. */
  risk(now = Date.now()): boolean {
    const last = Atomics.load(this.cells, LAST_CUT);
    if (BigInt(now) - last < BigInt(CUT_HOLD_MS)) return false;
    if (Atomics.compareExchange(this.cells, LAST_CUT, last, BigInt(now)) !== last) return false;
    const floor = BigInt(FLOOR_PER_MINUTE * 1000);
    for (;;) {
      const cur = Atomics.load(this.cells, RATE);
      const next = cur / 2n < floor ? (cur < floor ? cur : floor) : cur / 2n;
      if (Atomics.compareExchange(this.cells, RATE, cur, next) === cur) break;
    }
    Atomics.add(this.cells, CUTS, 1n);
    return true;
  }

  cuts(): number {
    return Number(Atomics.load(this.cells, CUTS));
  }

  private wake(): void {
    Atomics.add(this.cells, GEN, 1n);
    Atomics.notify(this.cells, GEN);
  }
}
