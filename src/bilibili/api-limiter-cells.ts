// The layout of the API limiter's shared cells (one SharedArrayBuffer of 64-bit words, read and written with Atomics).

export const PAUSE = 0;
/** The schedule of the minimum spacing (GCRA theoretical arrival time, epoch ms). Cell 4 is unused. */
export const TAT = 1;
/** Calls granted so far (all threads); also the sequence number of the next grant in RING. */
export const CALLS = 2;
/** Milliseconds callers waited for their turn, summed. */
export const WAITED = 3;
/** Pauses set so far (after 412/-352). */
export const PAUSES = 5;
/** Cluster mode: calls this process may still make from the cluster's shared budget; -1 (the default) = no cluster budget. */
export const GRANT = 6;
/** Cluster mode: callers waiting for a grant now (the main thread asks PostgreSQL for more when this is above 0). */
export const WANT = 7;
/** Spin lock of the window and the queue: 0 free, else the epoch ms it was taken (a holder that died is overridden). */
export const LOCK = 8;
/** The learned rate in milli-calls a minute (never above CEILING × 1000). */
export const RATE = 9;
/** ApiBudgetPerMinute: the rate's ceiling in calls a minute; 0 = no budget at all. */
export const CEILING = 10;
/** Risk answers (412/-352) that cut the rate, and the epoch ms of the last cut. */
export const CUTS = 11;
export const LAST_CUT = 12;
/** Bumped (and notified) whenever a caller leaves the queue or the rate changes: waiters look again. */
export const GEN = 13;
/** The next queue ticket. */
export const TICKET = 14;
/** The key of the queue's head (lowest priority level, then lowest ticket), 0 when empty, and its slot. */
export const HEAD = 15;
export const HEAD_SLOT = 16;
/** Slots in use are below this index. */
export const SLOT_HIGH = 17;
/** Callers waiting now, per priority level (5 cells). */
export const QUEUED = 18;
/** Ring of the epoch ms of the last RING_SIZE grants: grant n is at RING + n % RING_SIZE. */
export const RING = 24;
export const RING_SIZE = 1024;
/** The queue: per slot its key (0 = free) and the waiter's last heartbeat (epoch ms). */
export const SLOTS = RING + RING_SIZE;
export const SLOT_COUNT = 2048;
export const CELLS = SLOTS + 2 * SLOT_COUNT;
/** The longest a caller without a cluster grant sleeps before it looks again (it is woken at once by a grant). */
export const GRANT_POLL_MS = 1000;
