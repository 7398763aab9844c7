// The cluster's PostgreSQL pool: short timeouts so a lost database is noticed within one lease tick.
import pg from 'pg';

export type Db = pg.Pool;

export interface DbOptions {
  url: string;
  /** Upper bound on any statement, on connecting and on a transaction left waiting for its node; the lease loop must never wait longer than a tick. */
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
    // A node that stalls or is cut off inside a transaction must not keep its locks: PostgreSQL keeps such a session
    // open for as long as its TCP connection looks alive (hours through a partition), and the budget's advisory lock
    // then starves every other node of live-API calls. The server ends a transaction left idle this long.
    idle_in_transaction_session_timeout: timeout,
    idleTimeoutMillis: 10_000,
    application_name: 'liverec',
  });
  // A dropped idle connection must not crash the process; the next query reports the outage instead.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * Runs `fn` in one transaction on one connection. On any failure the connection is closed, not rolled back and reused:
 * the server rolls back when it closes, and one that timed out (a partition) may never answer a ROLLBACK.
 */
export async function inTransaction<T>(db: Db, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await db.connect();
  // A checked-out client has no pool listener: a connection lost meanwhile (the server ended a stalled transaction,
  // a restart) would be an uncaught 'error' event and end the process. The transaction's next step fails instead.
  const ignore = (): void => undefined;
  client.on('error', ignore);
  let result: T;
  try {
    await client.query('BEGIN');
    result = await fn(client);
    await client.query('COMMIT');
  } catch (err) {
    client.release(err instanceof Error ? err : new Error(String(err)));
    throw err;
  }
  client.removeListener('error', ignore);
  client.release();
  return result;
}
