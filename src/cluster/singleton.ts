// Named cluster-wide leases (one holder at a time, e.g. the live detector), fenced by epoch and judged by the database clock.
import type { Db } from './db.js';

/** Takes the named lease when it is free or expired (or already ours); the new epoch, or null when another node holds it. */
export async function claimSingleton(db: Db, name: string, nodeId: string, ttlMs: number): Promise<number | null> {
  const { rows } = await db.query<{ epoch: string }>(
    `INSERT INTO liverec_singletons (name, node_id, epoch, expires_at) VALUES ($1, $2, nextval('liverec_epoch'), now() + $3 * interval '1 millisecond')
     ON CONFLICT (name) DO UPDATE SET node_id = EXCLUDED.node_id, epoch = EXCLUDED.epoch, expires_at = EXCLUDED.expires_at
     WHERE liverec_singletons.expires_at <= now() OR liverec_singletons.node_id = EXCLUDED.node_id RETURNING epoch`,
    [name, nodeId, ttlMs],
  );
  return rows[0] ? Number(rows[0].epoch) : null;
}

/** Extends our unexpired lease; false when it expired or another node holds it now. */
export async function renewSingleton(db: Db, name: string, nodeId: string, epoch: number, ttlMs: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE liverec_singletons SET expires_at = now() + $4 * interval '1 millisecond'
     WHERE name = $1 AND node_id = $2 AND epoch = $3 AND expires_at > now()`,
    [name, nodeId, epoch, ttlMs],
  );
  return rowCount === 1;
}

/** Graceful exit: another node may take the lease at once. */
export async function releaseSingleton(db: Db, name: string, nodeId: string): Promise<void> {
  await db.query('DELETE FROM liverec_singletons WHERE name = $1 AND node_id = $2', [name, nodeId]);
}

/** Who holds the named lease now (null when nobody does). */
export async function singletonHolder(db: Db, name: string): Promise<string | null> {
  const { rows } = await db.query<{ node_id: string }>('SELECT node_id FROM liverec_singletons WHERE name = $1 AND expires_at > now()', [name]);
  return rows[0]?.node_id ?? null;
}
