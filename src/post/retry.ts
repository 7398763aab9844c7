// Retry rule of post-file jobs: a few attempts with growing waits, then a visible failed state.

export interface RetryPolicy {
  maxAttempts: number;
  /** Wait before attempt n + 1 after n failed ones. */
  delayMs(attemptsMade: number): number;
}

/** 3 attempts, 10 s then 60 s apart: a job failing for a passing reason (a busy disk, a restarting S3) gets over it. */
export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 3,
  delayMs: (n) => 10_000 * 6 ** (n - 1),
};

/**
 * Errors a retry cannot change: the job's own request is refused (a clip of a span the file does not hold). The job
 * fails at once with its reason instead of waiting 70 s through two more attempts.
 */
export const FINAL_ERROR_CODES: ReadonlySet<string> = new Set(['CLIP_EMPTY', 'CLIP_BAD_RANGE', 'CLIP_BAD_INPUT']);
