// The accounts file: <workdir>/.liverec/accounts.json, mode 0600, replaced atomically; the only place cookies are kept.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { atomicWriteFile } from '../config/atomic-write.js';
import type { AccountBackend } from './account-backend.js';

export const ACCOUNT_STATES = ['valid', 'refresh-failed', 'logged-out'] as const;
export type AccountState = (typeof ACCOUNT_STATES)[number];

const Stored = z.object({
  uid: z.number().int().positive(),
  name: z.string(),
  face: z.string(),
  /** The whole Cookie header of the login: secret. */
  cookie: z.string(),
  /** The web client's ac_time_value: secret; '' when unknown (an imported cookie without one is never refreshed). */
  refreshToken: z.string(),
  source: z.enum(['qr', 'config']),
  state: z.enum(ACCOUNT_STATES),
  addedAt: z.number(),
  /** SESSDATA's expiry as the service set it (epoch ms); null when unknown. */
  validUntil: z.number().nullable(),
  lastRefreshed: z.number().nullable(),
  lastChecked: z.number().nullable(),
  /** Why the last check or refresh failed (no secret in it); null after a good one. */
  lastError: z.string().nullable(),
});
export type StoredAccount = z.infer<typeof Stored>;

const File = z.object({ version: z.literal(1), accounts: z.array(Stored) });

export const ACCOUNTS_FILE = join('.liverec', 'accounts.json');

/** How often a running service looks at accounts.json for a `liverec login` made beside it (one stat when unchanged). */
export const FILE_RELOAD_MS = 2000;

/**
 * The file store: one service writes accounts.json, so a claim is the service's own one-check-per-account rule. A
 * `liverec login` beside a running service writes the same file; the service re-reads it whenever it changed (its
 * size, mtime or inode) before it answers or writes, so neither process's login is lost.
 */
export class AccountStore implements AccountBackend {
  readonly path: string;
  readonly reloadMs = FILE_RELOAD_MS;
  readonly shared = false;
  private cache: StoredAccount[] | null = null;
  /** The file as last read or written here; another writer changes it. */
  private seen = '';

  get where(): string {
    return this.path;
  }

  async loadAll(): Promise<{ accounts: StoredAccount[]; problem: string | null }> {
    let problem: string | null = null;
    if (this.cache === null || this.signature() !== this.seen) {
      const loaded = this.load();
      this.cache = loaded.accounts;
      problem = loaded.problem;
    }
    return { accounts: this.cache.map((a) => ({ ...a })), problem };
  }

  async put(account: StoredAccount): Promise<void> {
    this.cache = [...this.current().filter((a) => a.uid !== account.uid), { ...account }];
    this.save(this.cache);
  }

  async delete(uid: number): Promise<boolean> {
    const before = this.current();
    this.cache = before.filter((a) => a.uid !== uid);
    if (this.cache.length === before.length) return false;
    this.save(this.cache);
    return true;
  }

  async claim(uid: number): Promise<StoredAccount | null> {
    const a = this.current().find((x) => x.uid === uid);
    return a ? { ...a } : null;
  }

  async finish(account: StoredAccount): Promise<void> {
    const list = this.current();
    if (!list.some((a) => a.uid === account.uid)) return;
    this.cache = list.map((a) => (a.uid === account.uid ? { ...account } : a));
    this.save(this.cache);
  }

  /** The accounts as the file holds them now: a write never drops what another process saved since the last read. */
  private current(): StoredAccount[] {
    if (this.cache === null || this.signature() !== this.seen) this.cache = this.load().accounts;
    return this.cache;
  }

  private signature(): string {
    try {
      const s = statSync(this.path);
      return `${s.ino}:${s.size}:${s.mtimeMs}`;
    } catch {
      return '';
    }
  }

  constructor(workDir: string) {
    this.path = join(workDir, ACCOUNTS_FILE);
  }

  /** The saved accounts; a file that cannot be read is set aside (never overwritten unread) and reported. */
  load(): { accounts: StoredAccount[]; problem: string | null } {
    this.seen = this.signature();
    if (!existsSync(this.path)) return { accounts: [], problem: null };
    try {
      const parsed = File.safeParse(JSON.parse(readFileSync(this.path, 'utf8')));
      if (parsed.success) return { accounts: parsed.data.accounts, problem: null };
      throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    } catch (err) {
      const aside = `${this.path}.damaged-${Date.now()}`;
      renameSync(this.path, aside);
      this.seen = '';
      return { accounts: [], problem: `${this.path} could not be read (${(err as Error).message.slice(0, 200)}); kept as ${aside}` };
    }
  }

  save(accounts: readonly StoredAccount[]): void {
    mkdirSync(dirname(this.path), { recursive: true });
    atomicWriteFile(this.path, `${JSON.stringify({ version: 1, accounts }, null, 2)}\n`, undefined, 0o600);
    // A file the umask or an older liverec left wider is narrowed too.
    chmodSync(this.path, 0o600);
    this.seen = this.signature();
  }
}
