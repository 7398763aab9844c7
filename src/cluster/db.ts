// The cluster's PostgreSQL pool: short timeouts so a lost database is noticed within one lease tick.
import pg from 'pg';

export type Db = pg.Pool;

export interface DbOptions {
  url: string;
  /** Upper bound on any statement and on connecting; the lease loop must never wait longer than a tick. */
  timeoutMs?: number;
  /** Connections; the lease loop gets a pool of its own so that claims and snapshots never queue ahead of renewals. */
  max?: number;
}

export function openDb(options: DbOptions): Db {
  const timeout = options.timeoutMs ?? 3000;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 4,
    connectionTimeoutMillis: timeout,
    statement_timeout: timeout,
    query_timeout: timeout,
    idleTimeoutMillis: 10_000,
    application_name: 'liverec',
  });
  // A dropped idle connection must not crash the process; the next query reports the outage instead.
  pool.on('error', () => undefined);
  return pool;
}

/** Runs `fn` in one transaction on one connection. */
export async function inTransaction<T>(db: Db, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
