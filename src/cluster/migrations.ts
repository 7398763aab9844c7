// Versioned schema of the cluster's shared state; every node migrates at start, serialised by an advisory lock.
import { type Db, inTransaction } from './db.js';

/** Append only: a released migration is never edited, a change is a new entry. */
const MIGRATIONS: readonly string[] = [
  `CREATE SEQUENCE liverec_epoch;
   CREATE TABLE liverec_global (id int PRIMARY KEY CHECK (id = 1), config jsonb NOT NULL);
   CREATE TABLE liverec_rooms (room_id bigint PRIMARY KEY, config jsonb NOT NULL, added_at timestamptz NOT NULL DEFAULT now());
   CREATE TABLE liverec_nodes (
     node_id text PRIMARY KEY, advertise text, max_rooms int NOT NULL,
     started_at timestamptz NOT NULL, heartbeat_at timestamptz NOT NULL, left_at timestamptz);
   CREATE TABLE liverec_leases (
     room_id bigint PRIMARY KEY REFERENCES liverec_rooms ON DELETE CASCADE,
     node_id text NOT NULL, epoch bigint NOT NULL, expires_at timestamptz NOT NULL);
   CREATE TABLE liverec_room_status (
     room_id bigint PRIMARY KEY REFERENCES liverec_rooms ON DELETE CASCADE,
     node_id text NOT NULL, epoch bigint NOT NULL, updated_at timestamptz NOT NULL, recording boolean NOT NULL, dto jsonb NOT NULL);
   CREATE TABLE liverec_events (
     id bigserial PRIMARY KEY, node_id text NOT NULL, room_id bigint, at timestamptz NOT NULL DEFAULT now(), event jsonb NOT NULL);
   INSERT INTO liverec_global (id, config) VALUES (1, '{}');`,
  // 2: the cluster-wide webhook outbox (one row per event and target URL; see webhook-outbox.ts).
  `CREATE TABLE liverec_webhook_deliveries (
     id bigserial PRIMARY KEY,
     event_id text NOT NULL, url_index int NOT NULL, version smallint NOT NULL, event_type text NOT NULL,
     url text NOT NULL, body text NOT NULL, node_id text NOT NULL, created_at timestamptz NOT NULL DEFAULT now(),
     attempts int NOT NULL DEFAULT 0, next_at timestamptz NOT NULL DEFAULT now(),
     state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'given-up')),
     claimed_by text, claim_expires timestamptz, last_status int, last_error text, finished_at timestamptz,
     UNIQUE (event_id, url_index));
   CREATE INDEX liverec_webhook_due ON liverec_webhook_deliveries (next_at) WHERE state = 'pending';`,
  // 3: one live detector per cluster (a named lease), the statuses it found, and the cluster's live-API budget.
  `CREATE TABLE liverec_singletons (name text PRIMARY KEY, node_id text NOT NULL, epoch bigint NOT NULL, expires_at timestamptz NOT NULL);
   CREATE SEQUENCE liverec_detect_seq;
   CREATE TABLE liverec_detected (
     room_id bigint PRIMARY KEY REFERENCES liverec_rooms ON DELETE CASCADE,
     seq bigint NOT NULL, status jsonb NOT NULL, updated_at timestamptz NOT NULL);
   CREATE INDEX liverec_detected_seq ON liverec_detected (seq);
   CREATE TABLE liverec_api_budget (bucket bigint PRIMARY KEY, used int NOT NULL);
   CREATE TABLE liverec_api_pause (id int PRIMARY KEY CHECK (id = 1), paused_until timestamptz NOT NULL);
   INSERT INTO liverec_api_pause (id, paused_until) VALUES (1, 'epoch');`,
  // 4: the cluster's logins (the only table with cookies and refresh tokens) and each one's check claim.
  `CREATE TABLE liverec_accounts (
     uid bigint PRIMARY KEY, name text NOT NULL, face text NOT NULL, cookie text NOT NULL, refresh_token text NOT NULL,
     source text NOT NULL, state text NOT NULL, added_at bigint NOT NULL, valid_until bigint, last_refreshed bigint,
     last_checked bigint, last_error text, claimed_by text, claimed_until timestamptz, updated_at timestamptz NOT NULL DEFAULT now());`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

const LOCK_KEY = 0x6c7672; // "lvr": one key for every liverec cluster schema change

/** Brings the schema to SCHEMA_VERSION; refuses a database migrated by a newer liverec. */
export async function migrate(db: Db): Promise<number> {
  return inTransaction(db, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await client.query('CREATE TABLE IF NOT EXISTS liverec_schema (version int NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
    const { rows } = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM liverec_schema');
    const current = rows[0]?.v ?? 0;
    if (current > SCHEMA_VERSION) {
      throw Object.assign(new Error(`the cluster database has schema ${current}; this liverec knows up to ${SCHEMA_VERSION}`), { code: 'CLUSTER_SCHEMA_NEWER' });
    }
    for (let v = current; v < SCHEMA_VERSION; v++) {
      await client.query(MIGRATIONS[v]!);
      await client.query('INSERT INTO liverec_schema (version) VALUES ($1)', [v + 1]);
    }
    return SCHEMA_VERSION;
  });
}
