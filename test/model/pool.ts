// The simulated rooms the model test may add, and the short timings its liverec runs with.

export interface PoolRoom {
  roomId: number;
  shortId: number;
  uid: number;
}

/** Five rooms: defect 2 of issue 45 needed five (the batch fallback reached only three). */
export const POOL: readonly PoolRoom[] = [0, 1, 2, 3, 4].map((i) => ({ roomId: 45_100 + i, shortId: 4510 + i, uid: 9_045_100 + i }));

export const TIMING = {
  /** TimingCheckInterval (s): its floor, so "within 2 check intervals" is 10 s. */
  checkIntervalS: 5,
  /** AccountCheckInterval (s): each logged-in account is checked this often (a day by default). */
  accountCheckS: 3,
  /** TimingApiBlockedPause (ms): how long a -352 pauses every live-API call. */
  blockedPauseMs: 4000,
  /** ApiBudgetPerMinute: high enough that a short test never waits long for its turn. */
  budgetPerMinute: 300,
  /**
   * Slack on every bound for a busy 2-core machine: the bounds are generous on purpose (docs/testing.md); a
   * healthy run meets them in a few seconds.
   */
  slackMs: 20_000,
};

/** Live-API calls a room's start may make (room info, play info, danmaku info, a retry). */
const CALLS_PER_START = 4;

/**
 * The bound within which a live room that should record does (issue 45: 2 check intervals + the budget's wait: every
 * room starting at once, each call waiting its turn under `budgetPerMinute`).
 */
export function recordBoundMs(riskPending: boolean, budgetPerMinute = TIMING.budgetPerMinute): number {
  const budgetWaitMs = Math.ceil(60_000 / budgetPerMinute) * POOL.length * CALLS_PER_START;
  return 2 * TIMING.checkIntervalS * 1000 + budgetWaitMs + (riskPending ? TIMING.blockedPauseMs : 0) + TIMING.slackMs;
}
