// The cluster's logins in PostgreSQL (liverec_accounts): shared by every node, each check under a per-account claim.
import { existsSync, renameSync } from 'node:fs';
import type { AccountBackend } from '../accounts/account-backend.js';
import { AccountStore, type StoredAccount } from '../accounts/account-store.js';
import type { Db } from './db.js';

/** A claim outlives any check (a few passport calls, each with its own timeout); a node that dies frees it by expiry. */
const CLAIM_MS = 60_000;
/** How soon a node sees logins other nodes added, removed or refreshed. */
export const ACCOUNT_RELOAD_MS = 2000;

const COLUMNS = 'uid, name, face, cookie, refresh_token, source, state, added_at, valid_until, last_refreshed, last_checked, last_error';

interface Row {
  uid: string; name: string; face: string; cookie: string; refresh_token: string; source: string; state: string;
  added_at: string; valid_until: string | null; last_refreshed: string | null; last_checked: string | null; last_error: string | null;
}

const num = (v: string | null): number | null => (v === null ? null : Number(v));

function fromRow(r: Row): StoredAccount {
  return {
    uid: Number(r.uid), name: r.name, face: r.face, cookie: r.cookie, refreshToken: r.refresh_token,
    source: r.source === 'config' ? 'config' : 'qr', state: r.state as StoredAccount['state'], addedAt: Number(r.added_at),
    validUntil: num(r.valid_until), lastRefreshed: num(r.last_refreshed), lastChecked: num(r.last_checked), lastError: r.last_error,
  };
}

const values = (a: StoredAccount): unknown[] => [
  a.uid, a.name, a.face, a.cookie, a.refreshToken, a.source, a.state, a.addedAt, a.validUntil, a.lastRefreshed, a.lastChecked, a.lastError,
];

export class PgAccountStore implements AccountBackend {
  readonly where = 'the cluster database (liverec_accounts)';
  readonly shared = true;

  constructor(private readonly db: Db, private readonly nodeId: string, readonly reloadMs: number | null = ACCOUNT_RELOAD_MS) {}

  async loadAll(): Promise<{ accounts: StoredAccount[]; problem: string | null }> {
    const { rows } = await this.db.query<Row>(`SELECT ${COLUMNS} FROM liverec_accounts ORDER BY added_at, uid`);
    return { accounts: rows.map(fromRow), problem: null };
  }

  async put(a: StoredAccount): Promise<void> {
    await this.db.query(
      `INSERT INTO liverec_accounts (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (uid) DO UPDATE SET name = EXCLUDED.name, face = EXCLUDED.face, cookie = EXCLUDED.cookie,
         refresh_token = EXCLUDED.refresh_token, source = EXCLUDED.source, state = EXCLUDED.state, valid_until = EXCLUDED.valid_until,
         last_refreshed = EXCLUDED.last_refreshed, last_checked = EXCLUDED.last_checked, last_error = EXCLUDED.last_error, updated_at = now()`,
      values(a),
    );
  }

  /** An account already in the cluster is kept (it may be newer than the file's); true when this one was added. */
  async putIfAbsent(a: StoredAccount): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `INSERT INTO liverec_accounts (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (uid) DO NOTHING`,
      values(a),
    );
    return rowCount === 1;
  }

  async delete(uid: number): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM liverec_accounts WHERE uid = $1', [uid]);
    return rowCount === 1;
  }

  async claim(uid: number): Promise<StoredAccount | null> {
    // One statement takes the claim and reads the row as it is after any other node's finished refresh.
    const { rows } = await this.db.query<Row>(
      `UPDATE liverec_accounts SET claimed_by = $2, claimed_until = now() + $3 * interval '1 millisecond'
       WHERE uid = $1 AND (claimed_until IS NULL OR claimed_until <= now() OR claimed_by = $2) RETURNING ${COLUMNS}`,
      [uid, this.nodeId, CLAIM_MS],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async finish(a: StoredAccount): Promise<void> {
    await this.db.query(
      `UPDATE liverec_accounts SET name = $3, face = $4, cookie = $5, refresh_token = $6, state = $7, valid_until = $8,
         last_refreshed = $9, last_checked = $10, last_error = $11, claimed_by = NULL, claimed_until = NULL, updated_at = now()
       WHERE uid = $1 AND claimed_by = $2`,
      [a.uid, this.nodeId, a.name, a.face, a.cookie, a.refreshToken, a.state, a.validUntil, a.lastRefreshed, a.lastChecked, a.lastError],
    );
  }
}

/**
 * A node joining the cluster with logins in its own accounts.json brings them in once: accounts the cluster lacks
 * are added, and the file is renamed accounts.json.imported-<ms> (kept, never deleted: it is the user's).
 */
export async function importAccountsFile(store: PgAccountStore, workDir: string): Promise<{ added: number; file: string } | null> {
  const file = new AccountStore(workDir);
  if (!existsSync(file.path)) return null;
  const { accounts } = await file.loadAll();
  let added = 0;
  for (const a of accounts) if (await store.putIfAbsent(a)) added++;
  const aside = `${file.path}.imported-${Date.now()}`;
  if (existsSync(file.path)) renameSync(file.path, aside);
  return { added, file: aside };
}
