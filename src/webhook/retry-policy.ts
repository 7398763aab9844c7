// brec's retry rule: 3 attempts per URL, waiting 1 s before the 2nd and 2 s before the 3rd.

export const MAX_ATTEMPTS = 3;

/** Wait before attempt `attemptsMade + 1`, i.e. attemptsMade × 1000 ms (brec: `i × 1000`). */
export function retryDelayMs(attemptsMade: number): number {
  return attemptsMade * 1000;
}

/** When the next attempt may start, given the attempts made and when the last one started or ended. */
export function nextAttemptAt(attemptsMade: number, last: number | undefined): number {
  if (attemptsMade === 0 || last === undefined) return 0;
  return last + retryDelayMs(attemptsMade);
}
