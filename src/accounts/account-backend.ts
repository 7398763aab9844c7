// Where an account pool keeps its logins: the work directory's accounts.json, or a cluster's PostgreSQL table.
import type { StoredAccount } from './account-store.js';

/**
 * The account service's only way to its secrets. Two implementations: AccountStore (accounts.json, one process) and
 * PgAccountStore (liverec_accounts, shared by every node of a cluster).
 */
export interface AccountBackend {
  /** Names the place in log lines (never a secret). */
  readonly where: string;
  /** Other processes (a cluster's nodes) use these logins and the global settings too. */
  readonly shared: boolean;
  /** How often the service re-reads the accounts (ms): other writers add, remove and refresh them; null = none. */
  readonly reloadMs: number | null;
  /** Every saved account; a problem (a damaged file) is reported, never thrown. */
  loadAll(): Promise<{ accounts: StoredAccount[]; problem: string | null }>;
  /** Saves an account (a new login, or a login of the same uid again). */
  put(account: StoredAccount): Promise<void>;
  /** Forgets an account; false when there was none. */
  delete(uid: number): Promise<boolean>;
  /**
   * Takes the account for one check or refresh (no other holder may check it until `finish`) and answers the account
   * as stored now, read after the claim was taken; null when another holder has it, or it is gone.
   */
  claim(uid: number): Promise<StoredAccount | null>;
  /** Saves the checked account and frees its claim (nothing is saved if it was removed meanwhile). */
  finish(account: StoredAccount): Promise<void>;
}
