// `liverec login <workdir>`: a web login by QR code in the terminal, saved as an account of that work directory.
import { type Command, CommanderError } from 'commander';
import QRCode from 'qrcode';
import { AccountStore } from '../accounts/account-store.js';
import type { AccountBackend } from '../accounts/account-backend.js';
import { PassportClient, passportHosts } from '../accounts/passport-client.js';
import { QrLogins } from '../accounts/qr-logins.js';
import { ConfigStore } from '../config/store.js';
import { workDirProblem } from './work-dir.js';

const POLL_MS = 2000;

export function registerLoginCommand(program: Command): void {
  program
    .command('login')
    .description('log in to Bilibili by scanning a QR code with the app; the account is saved in <workdir>/.liverec/accounts.json (a running liverec of that directory uses it within seconds), or with --cluster in the cluster database, where every node uses it within seconds')
    .argument('[workdir]', 'the work directory of the recorder (its config.json names the live API host); not with --cluster')
    .option('--cluster <postgres-url>', 'save the account in a liverec cluster on PostgreSQL (or LIVEREC_CLUSTER_URL); the live API host comes from the cluster\'s settings')
    .exitOverride((err: CommanderError) => process.exit(err.exitCode === 0 ? 0 : 2))
    .action(async (workDir: string | undefined, flags: { cluster?: string }) => {
      const url = flags.cluster ?? process.env.LIVEREC_CLUSTER_URL;
      const problem = url ? null : workDir === undefined ? 'a work directory (or --cluster <postgres-url>) is required' : workDirProblem(workDir, false, true);
      if (problem) {
        process.stderr.write(`liverec: ${problem}\n`);
        process.exit(2);
      }
      const target = url ? await clusterTarget(url) : { store: new AccountStore(workDir!), config: ConfigStore.load(workDir!), close: async () => undefined };
      const { store, config } = target;
      const client = new PassportClient(passportHosts(config.effective('LiveApiHost') ?? ''));
      const logins = new QrLogins(() => client, (account) => store.put(account));
      const qr = await logins.start();
      process.stdout.write(`${await QRCode.toString(qr.url, { type: 'terminal', small: true })}\n`);
      process.stdout.write(`Scan this QR code with the Bilibili app (it expires at ${qr.expiresAt}). QR key: ${qr.key}\n`);
      let last = '';
      for (;;) {
        const s = await logins.status(qr.key);
        if (!s) throw new Error('the QR login was lost');
        if (s.state !== last) {
          last = s.state;
          if (s.state === 'scanned') process.stdout.write('Scanned: confirm the login in the app.\n');
        }
        if (s.state === 'confirmed') {
          process.stdout.write(`Logged in as account ${s.uid}; saved in ${store.where}.\n`);
          await target.close();
          return;
        }
        if (s.state === 'expired') {
          process.stderr.write('liverec: the QR code expired before the login was confirmed; run `liverec login` again\n');
          process.exit(3);
        }
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
    });
}

/** The cluster database as the account store, and the cluster's shared settings (its LiveApiHost). */
async function clusterTarget(url: string): Promise<{ store: AccountBackend; config: ConfigStore; close(): Promise<void> }> {
  const [{ openDb }, { migrate }, { PgAccountStore }] = await Promise.all([
    import('../cluster/db.js'), import('../cluster/migrations.js'), import('../cluster/pg-account-store.js'),
  ]);
  const db = openDb({ url, max: 1 });
  try {
    await migrate(db);
    const { rows } = await db.query<{ config: Record<string, unknown> }>('SELECT config FROM liverec_global WHERE id = 1');
    const config = ConfigStore.fromText(JSON.stringify({ version: 3, global: rows[0]?.config ?? {} }), 'cluster database');
    return { store: new PgAccountStore(db, 'liverec-login', null), config, close: () => db.end() };
  } catch (err) {
    await db.end().catch(() => undefined);
    throw err;
  }
}
