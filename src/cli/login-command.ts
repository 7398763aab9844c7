// `liverec login <workdir>`: a web login by QR code in the terminal, saved as an account of that work directory.
import { type Command, CommanderError } from 'commander';
import QRCode from 'qrcode';
import { AccountStore } from '../accounts/account-store.js';
import { PassportClient, passportHosts } from '../accounts/passport-client.js';
import { QrLogins } from '../accounts/qr-logins.js';
import { ConfigStore } from '../config/store.js';
import { workDirProblem } from './work-dir.js';

const POLL_MS = 2000;

export function registerLoginCommand(program: Command): void {
  program
    .command('login')
    .description('log in to Bilibili by scanning a QR code with the app; the account is saved in <workdir>/.liverec/accounts.json (restart a running liverec to use it, or log in from the web UI instead)')
    .argument('<workdir>', 'the work directory of the recorder (its config.json names the live API host)')
    .exitOverride((err: CommanderError) => process.exit(err.exitCode === 0 ? 0 : 2))
    .action(async (workDir: string) => {
      const problem = workDirProblem(workDir);
      if (problem) {
        process.stderr.write(`liverec: ${problem}\n`);
        process.exit(2);
      }
      const config = ConfigStore.load(workDir);
      const client = new PassportClient(passportHosts(config.effective('LiveApiHost') ?? ''));
      const store = new AccountStore(workDir);
      const logins = new QrLogins(() => client, (account) => {
        const { accounts } = store.load();
        store.save([...accounts.filter((a) => a.uid !== account.uid), account]);
      });
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
          process.stdout.write(`Logged in as account ${s.uid}; saved in ${store.path}.\n`);
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
