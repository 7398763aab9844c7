// SQL of the cluster webhook outbox: journal a delivery, claim due ones (SKIP LOCKED), record outcomes.
import type { Db } from './db.js';
import { MAX_ATTEMPTS } from '../webhook/retry-policy.js';

export interface NewDelivery {
  eventId: string;
  urlIndex: number;
  version: 1 | 2;
  eventType: string;
  url: string;
  body: string;
}

export interface ClaimedDelivery extends NewDelivery {
  id: string;
  /** Attempts made including the one just claimed. */
  attempts: number;
  createdAt: Date;
}

export async function insertDeliveries(db: Db, nodeId: string, rows: NewDelivery[]): Promise<void> {
  if (rows.length === 0) return;
  const values: unknown[] = [];
  const tuples = rows.map((r, i) => {
    values.push(r.eventId, r.urlIndex, r.version, r.eventType, r.url, r.body, nodeId);
    const b = i * 7;
    return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, $${b + 7})`;
  });
  // A retried insert after a lost reply must not make a second delivery of the same event.
  await db.query(
    `INSERT INTO liverec_webhook_deliveries (event_id, url_index, version, event_type, url, body, node_id)
     VALUES ${tuples.join(', ')} ON CONFLICT (event_id, url_index) DO NOTHING`, values);
}

/**
 * Claims up to `limit` due deliveries for `nodeId` and counts the attempt now, before it is made: a node that dies
 * mid-attempt has used it, and nobody retries until its claim expires.
 */
export async function claimDue(db: Db, nodeId: string, limit: number, claimMs: number): Promise<ClaimedDelivery[]> {
  const { rows } = await db.query<{ id: string; event_id: string; url_index: number; version: 1 | 2; event_type: string; url: string; body: string; attempts: number; created_at: Date }>(
    `UPDATE liverec_webhook_deliveries d
        SET attempts = d.attempts + 1, claimed_by = $1, claim_expires = now() + make_interval(secs => $3::float8 / 1000)
       FROM (SELECT id FROM liverec_webhook_deliveries
              WHERE state = 'pending' AND attempts < $4 AND next_at <= now() AND (claim_expires IS NULL OR claim_expires < now())
              ORDER BY next_at, id LIMIT $2 FOR UPDATE SKIP LOCKED) due
      WHERE d.id = due.id
  RETURNING d.id, d.event_id, d.url_index, d.version, d.event_type, d.url, d.body, d.attempts, d.created_at`,
    [nodeId, limit, claimMs, MAX_ATTEMPTS]);
  return rows.map((r) => ({
    id: r.id, eventId: r.event_id, urlIndex: r.url_index, version: r.version, eventType: r.event_type,
    url: r.url, body: r.body, attempts: r.attempts, createdAt: r.created_at,
  }));
}

/**
 * Records an attempt's outcome, only while this node still holds the claim of that attempt (a late answer after the
 * claim expired and another node went on must not overwrite its state). A failure waits attempts × 1 s (brec's rule).
 */
export async function finishAttempt(db: Db, nodeId: string, d: ClaimedDelivery, ok: boolean, status: number | null, error: string | null): Promise<void> {
  const state = ok ? 'delivered' : d.attempts >= MAX_ATTEMPTS ? 'given-up' : 'pending';
  await db.query(
    `UPDATE liverec_webhook_deliveries
        SET state = $4, last_status = $5, last_error = $6, claimed_by = NULL, claim_expires = NULL,
            next_at = now() + make_interval(secs => attempts), finished_at = CASE WHEN $4 = 'pending' THEN NULL ELSE now() END
      WHERE id = $1 AND claimed_by = $2 AND attempts = $3`,
    [d.id, nodeId, d.attempts, state, status, error]);
}

/** Deliveries whose last attempt was cut by a node's death and that have no attempt left. */
export async function giveUpExhausted(db: Db): Promise<void> {
  await db.query(
    `UPDATE liverec_webhook_deliveries SET state = 'given-up', finished_at = now(), last_error = coalesce(last_error, 'the node making the last attempt died')
      WHERE state = 'pending' AND attempts >= $1 AND claim_expires < now()`, [MAX_ATTEMPTS]);
}

/** The body of a journaled delivery, for a manual replay from any node. */
export async function deliveryBody(db: Db, eventId: string, url: string): Promise<string | null> {
  const { rows } = await db.query<{ body: string }>('SELECT body FROM liverec_webhook_deliveries WHERE event_id = $1 AND url = $2 LIMIT 1', [eventId, url]);
  return rows[0]?.body ?? null;
}

/** Finished deliveries are kept `keepMs` for inspection, then deleted, so the table does not grow without bound. */
export async function pruneFinished(db: Db, keepMs: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM liverec_webhook_deliveries WHERE state <> 'pending' AND finished_at < now() - make_interval(secs => $1::float8 / 1000)`, [keepMs]);
  return rowCount ?? 0;
}
