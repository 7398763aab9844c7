// The process's live-API budget as users see it: ceiling, learned rate, queue, calls in the last minute, waits, pauses.
import { getProcessLimiter } from '../bilibili/api-limiter.js';
import type { ApiPriority } from '../bilibili/api-priority.js';

export interface ApiUsage {
  /** ApiBudgetPerMinute: the ceiling of the rate (0 = no budget). */
  budgetPerMinute: number;
  /** The learned rate in force: calls allowed in any minute (halved on 412/-352, grows back while answers are good). */
  ratePerMinute: number;
  /** Risk answers that cut the rate. */
  rateCuts: number;
  /** Calls waiting for their turn now, by priority. */
  queued: Record<ApiPriority, number>;
  /** Live-API calls granted since start (every room, every thread, batch checks included). */
  calls: number;
  callsLastMinute: number;
  /** Total ms calls waited for their slot in the budget. */
  waitedMs: number;
  /** Pauses after risk-control answers (412/-352). */
  pauses: number;
  /** Epoch ms while paused, else 0. */
  pausedUntil: number;
}

const SAMPLE_MS = 5000;

/** Samples the shared limiter's call counter every 5 s; calls in the last minute are the difference over 60 s. */
export class ApiUsageSampler {
  private readonly samples: { at: number; calls: number }[] = [];
  private timer: NodeJS.Timeout | null = null;

  start(): void {
    if (this.timer) return;
    this.sample();
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private sample(now = Date.now()): void {
    this.samples.push({ at: now, calls: getProcessLimiter().usage().calls });
    while (this.samples.length > 1 && this.samples[1]!.at <= now - 60_000) this.samples.shift();
  }

  usage(now = Date.now()): ApiUsage {
    const limiter = getProcessLimiter();
    const u = limiter.usage();
    const pausedUntil = limiter.pausedUntil();
    return {
      budgetPerMinute: limiter.budgetPerMinute(), ratePerMinute: limiter.ratePerMinute(), rateCuts: u.cuts, queued: u.queued,
      calls: u.calls, callsLastMinute: u.lastMinute,
      waitedMs: u.waitedMs, pauses: u.pauses, pausedUntil: pausedUntil > now ? pausedUntil : 0,
    };
  }
}
