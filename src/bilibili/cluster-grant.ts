// Cluster mode's share of the API budget inside the limiter's shared cells: tokens granted from PostgreSQL, taken by any thread.
import { GRANT, GRANT_POLL_MS, WANT } from './api-limiter-cells.js';

/*
 * Why in the shared cells: every room thread takes its token with one CAS, and a grant written by the main thread
 * (src/cluster/cluster-budget.ts) wakes the waiting threads at once through Atomics.notify, with no message round trip.
 * A limiter attached to an older, shorter buffer has no grant cells and is never in cluster mode.
 */

type WaitAsync = (cells: BigInt64Array, index: number, value: bigint, timeoutMs: number) => { async: boolean; value: Promise<string> | string };

/** Sleeps `ms`, or rejects with the signal's reason as soon as it aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export class ClusterGrant {
  constructor(private readonly cells: BigInt64Array) {}

  private get present(): boolean {
    return this.cells.length > WANT;
  }

  /** `grant` calls may be made from now on; a negative number ends cluster mode. */
  set(grant: number): void {
    if (!this.present) return;
    Atomics.store(this.cells, GRANT, BigInt(Math.trunc(grant)));
    Atomics.notify(this.cells, GRANT);
  }

  /** Tokens left (-1 outside cluster mode) and callers waiting for one. */
  state(): { left: number; waiting: number } {
    if (!this.present) return { left: -1, waiting: 0 };
    return { left: Number(Atomics.load(this.cells, GRANT)), waiting: Number(Atomics.load(this.cells, WANT)) };
  }

  add(tokens: number): void {
    if (!this.present || tokens <= 0) return;
    Atomics.add(this.cells, GRANT, BigInt(Math.trunc(tokens)));
    Atomics.notify(this.cells, GRANT);
  }

  /** Sleeps until the grant cell changes from `seen` (a grant arrived, in any thread) or GRANT_POLL_MS pass. */
  private async change(seen: bigint, signal?: AbortSignal): Promise<void> {
    const waitAsync = (Atomics as unknown as { waitAsync?: WaitAsync }).waitAsync;
    if (!waitAsync) return abortableSleep(100, signal);
    const r = waitAsync(this.cells, GRANT, seen, GRANT_POLL_MS);
    if (!r.async) return;
    if (!signal) return void (await r.value);
    if (signal.aborted) throw signal.reason;
    // An abort does not cancel the wait (it ends by itself within GRANT_POLL_MS); the caller stops waiting at once.
    await new Promise<void>((resolve, reject) => {
      const onAbort = (): void => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      void (r.value as Promise<string>).then(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }

  /**
   * Takes one token, waiting while there is none; returns at once outside cluster mode. `checkPaused` runs after
   * each wait, so a risk-control pause set meanwhile ends the wait with its error.
   */
  async take(checkPaused: () => void, signal?: AbortSignal): Promise<void> {
    if (!this.present) return;
    let waiting = false;
    try {
      for (;;) {
        const left = Atomics.load(this.cells, GRANT);
        if (left < 0n) return;
        if (left > 0n) {
          if (Atomics.compareExchange(this.cells, GRANT, left, left - 1n) === left) return;
          continue;
        }
        if (!waiting) {
          waiting = true;
          Atomics.add(this.cells, WANT, 1n);
        }
        await this.change(left, signal);
        checkPaused();
      }
    } finally {
      if (waiting) Atomics.sub(this.cells, WANT, 1n);
    }
  }
}
