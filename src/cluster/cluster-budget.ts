// The cluster's one live-API budget (ApiBudgetPerMinute for all nodes together), granted from PostgreSQL in small batches.
import type { ApiLimiter } from '../bilibili/api-limiter.js';
import { logger } from '../log/logger.js';
import { type Db, inTransaction } from './db.js';

/*
 * Why grants and not a database call per API call: callers in any thread take tokens from the limiter's shared
 * cells; only when none is left and someone waits does this loop ask PostgreSQL, for a few tokens at once. The
 * budget is counted in 10-s buckets of the database's clock; a grant never lets the last six buckets (one minute)
 * hold more than the budget, and tokens expire with their bucket, so no node can hoard them into a later minute.
 * Each node's limiter still spaces its own calls (GCRA), so a grant is never spent as one burst beyond `burst`.
 */
export const BUCKET_MS = 10_000;
const BUCKETS_PER_MINUTE = 6;
/** At most this many tokens a grant: callers waiting at once share one database round trip. */
const MAX_GRANT = 4;
/** How often the loop looks at the shared cells (no database call unless a caller waits). */
const STEP_MS = 100;
/** How often the cluster-wide pause (risk control seen by any node) is read. */
const PAUSE_READ_MS = 2000;
const LOCK_KEY = 0x6c7673; // "lvs": the budget rows

export interface BudgetGrant {
  granted: number;
  /** Milliseconds until the bucket ends and unspent tokens expire. */
  expiresInMs: number;
}

/** Takes up to `want` tokens of `perMinute` for the current bucket; atomic across nodes. */
export async function grantTokens(db: Db, want: number, perMinute: number): Promise<BudgetGrant> {
  return inTransaction(db, async (c) => {
    await c.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    const { rows } = await c.query<{ bucket: string; left_ms: string; used: string | null }>(
      `SELECT b.bucket, b.left_ms, (SELECT sum(used) FROM liverec_api_budget WHERE bucket > b.bucket - $1) AS used
       FROM (SELECT floor(extract(epoch FROM clock_timestamp()) * 1000 / $2)::bigint AS bucket,
                    ceil($2 - (extract(epoch FROM clock_timestamp()) * 1000)::numeric % $2)::bigint AS left_ms) b`,
      [BUCKETS_PER_MINUTE, BUCKET_MS],
    );
    const bucket = Number(rows[0]!.bucket);
    const granted = Math.max(0, Math.min(want, perMinute - Number(rows[0]!.used ?? 0)));
    if (granted > 0) {
      await c.query(
        `INSERT INTO liverec_api_budget (bucket, used) VALUES ($1, $2)
         ON CONFLICT (bucket) DO UPDATE SET used = liverec_api_budget.used + EXCLUDED.used`,
        [bucket, granted],
      );
    }
    // Old buckets are no use to anyone; one cheap delete per grant keeps the table to a few rows.
    await c.query('DELETE FROM liverec_api_budget WHERE bucket <= $1', [bucket - BUCKETS_PER_MINUTE * 2]);
    return { granted, expiresInMs: Number(rows[0]!.left_ms) };
  });
}

/** Shares a risk-control pause with every node (the service counts calls per IP, and nodes often share one). */
export async function sharePause(db: Db, untilMsFromNow: number): Promise<void> {
  await db.query(
    `UPDATE liverec_api_pause SET paused_until = greatest(paused_until, clock_timestamp() + $1 * interval '1 millisecond') WHERE id = 1`,
    [Math.round(untilMsFromNow)],
  );
}

/** Milliseconds the cluster stays paused (0 when not). */
export async function readPause(db: Db): Promise<number> {
  const { rows } = await db.query<{ ms: string }>(
    `SELECT greatest(0, extract(epoch FROM paused_until - clock_timestamp()) * 1000)::bigint AS ms FROM liverec_api_pause WHERE id = 1`,
  );
  return Number(rows[0]?.ms ?? 0);
}

export class ClusterBudget {
  private timer: NodeJS.Timeout | null = null;
  private expiresAt = 0;
  /** The budget was used up: no use asking again before the current bucket ends. */
  private retryAt = 0;
  private busy = false;
  private lastPauseRead = 0;
  private sharedPauseUntil = 0;
  /** Grants asked for and tokens received (tests, logs). */
  grants = 0;
  tokens = 0;

  constructor(private readonly db: Db, private readonly limiter: ApiLimiter, private readonly perMinute: () => number) {}

  start(): void {
    this.limiter.setGrant(0);
    this.timer = setInterval(() => void this.step(), STEP_MS);
    this.timer.unref();
  }

  /** Back to the process's own budget (the node left the cluster). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.limiter.setGrant(-1);
  }

  private async step(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const now = Date.now();
      // 0 = no budget (as for one process): calls are not counted against the cluster.
      const perMinute = this.perMinute();
      if (perMinute <= 0) return this.limiter.setGrant(-1);
      if (this.limiter.grantState().left < 0) this.limiter.setGrant(0);
      if (this.expiresAt > 0 && now >= this.expiresAt) {
        this.limiter.setGrant(0);
        this.expiresAt = 0;
      }
      await this.syncPause(now);
      const { left, waiting } = this.limiter.grantState();
      if (waiting > 0 && left <= 0 && this.limiter.pausedUntil() <= now && now >= this.retryAt) {
        // Exactly what waits: a spare token would expire unused with its bucket (the detector calls once in 6 s) and
        // still count against the budget.
        const grant = await grantTokens(this.db, Math.min(MAX_GRANT, waiting), perMinute);
        this.grants++;
        if (grant.granted === 0) this.retryAt = Date.now() + grant.expiresInMs;
        else {
          this.tokens += grant.granted;
          this.expiresAt = Date.now() + grant.expiresInMs;
          this.limiter.addGrant(grant.granted);
        }
      }
    } catch (err) {
      logger().warn({ err: (err as Error).message }, 'cluster API budget: no grant (the database is unreachable, or another node holds the budget lock); live-API calls wait');
    } finally {
      this.busy = false;
    }
  }

  /** A pause set here goes to the database; one set elsewhere comes from it. */
  private async syncPause(now: number): Promise<void> {
    const local = this.limiter.pausedUntil();
    if (local > now && local > this.sharedPauseUntil + 1000) {
      this.sharedPauseUntil = local;
      await sharePause(this.db, local - now);
    }
    if (now - this.lastPauseRead < PAUSE_READ_MS) return;
    this.lastPauseRead = now;
    const ms = await readPause(this.db);
    if (ms > 0 && now + ms > local + 1000) {
      this.sharedPauseUntil = now + ms;
      this.limiter.pause(ms, now);
    }
  }
}
