// The accounts file: <workdir>/.liverec/accounts.json, mode 0600, replaced atomically; the only place cookies are kept.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { atomicWriteFile } from '../config/atomic-write.js';

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

export class AccountStore {
  readonly path: string;

  constructor(workDir: string) {
    this.path = join(workDir, ACCOUNTS_FILE);
  }

  /** The saved accounts; a file that cannot be read is set aside (never overwritten unread) and reported. */
  load(): { accounts: StoredAccount[]; problem: string | null } {
    if (!existsSync(this.path)) return { accounts: [], problem: null };
    try {
      const parsed = File.safeParse(JSON.parse(readFileSync(this.path, 'utf8')));
      if (parsed.success) return { accounts: parsed.data.accounts, problem: null };
      throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    } catch (err) {
      const aside = `${this.path}.damaged-${Date.now()}`;
      renameSync(this.path, aside);
      return { accounts: [], problem: `${this.path} could not be read (${(err as Error).message.slice(0, 200)}); kept as ${aside}` };
    }
  }

  save(accounts: readonly StoredAccount[]): void {
    mkdirSync(dirname(this.path), { recursive: true });
    atomicWriteFile(this.path, `${JSON.stringify({ version: 1, accounts }, null, 2)}\n`, undefined, 0o600);
    // A file the umask or an older liverec left wider is narrowed too.
    chmodSync(this.path, 0o600);
  }
}
