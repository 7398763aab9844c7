// The layout of the API limiter's shared cells (one SharedArrayBuffer of 64-bit words, read and written with Atomics).

export const PAUSE = 0;
export const TAT = 1;
/** Calls granted so far (all threads). */
export const CALLS = 2;
/** Milliseconds callers waited for their slot, summed. */
export const WAITED = 3;
/** The spacing in force (ms); 0 = the one given at creation. Changed at run time by setBudgetPerMinute. */
export const SPACING = 4;
/** Pauses set so far (after 412/-352). */
export const PAUSES = 5;
/** Cluster mode: calls this process may still make from the cluster's shared budget; -1 (the default) = no cluster budget. */
export const GRANT = 6;
/** Cluster mode: callers waiting for a grant now (the main thread asks PostgreSQL for more when this is above 0). */
export const WANT = 7;
export const CELLS = 8;
/** The longest a caller without a cluster grant sleeps before it looks again (it is woken at once by a grant). */
export const GRANT_POLL_MS = 1000;

