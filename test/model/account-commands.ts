// The account commands of the model test (issue 49): a QR login through the simulator's phone controls, a refresh the
// service asks for, a logout elsewhere. Promises: recording goes on through each (no new file on a refresh, the old
// token confirmed within one check), the API lists what the model expects, and no secret reaches what the model reads.
import { FILE_RELOAD_MS } from '../../src/accounts/account-store.js';
import { startCli } from '../cli/helpers.js';
import { fileEvents, InvariantError } from './invariants.js';
import { checkAccounts, noSecrets } from './account-invariants.js';
import { PickCommand, until } from './commands.js';
import type { Model } from './model.js';
import { TIMING } from './pool.js';
import type { RealSystem } from './real-system.js';

/** The accounts the model logs in (uids the simulator's phone confirms). */
export const ACCOUNT_UIDS = [70_001, 70_002];

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** One account check (AccountCheckInterval) and the slack of a busy machine. */
const checkBoundMs = (): number => 2 * TIMING.accountCheckS * 1000 + TIMING.slackMs;


/** A command on one of the model's accounts, picked as PickCommand picks a room: `uid` is the pick. */
abstract class AccountCommand extends PickCommand {
  get uid(): number {
    return this.room;
  }
  override async run(m: Model, r: RealSystem): Promise<void> {
    await super.run(m, r);
    await checkAccounts(m, r);
    await noSecrets(m, r);
  }
}

const valid = (m: Readonly<Model>): number[] => ACCOUNT_UIDS.filter((u) => m.accounts.get(u) === 'valid');

/**
 * A QR login; the simulator stands in for the phone (scan, then confirm). `cli`: `liverec login <workdir>` beside the
 * running service (which must pick the saved account up within its re-read of accounts.json); otherwise Settings →
 * Accounts → Log in by QR code.
 */
export class Login extends AccountCommand {
  constructor(pick: number, readonly cli = false) {
    super(pick);
  }
  protected candidates(m: Readonly<Model>): number[] {
    return ACCOUNT_UIDS.filter((u) => m.accounts.get(u) !== 'valid');
  }
  protected async act(m: Model, r: RealSystem): Promise<void> {
    if (this.cli) await this.byCli(r);
    else await this.byUi(r);
    m.accounts.set(this.uid, 'valid');
  }
  private async byUi(r: RealSystem): Promise<void> {
    const start = await r.api('POST', '/api/accounts/qrcode');
    if (start.status !== 200) throw new InvariantError(`POST /api/accounts/qrcode answered ${start.status}: ${JSON.stringify(start.json)}`);
    const key = String(start.json.key);
    await r.control(`/_sim/qrcode/${key}/scan`, {});
    await r.control(`/_sim/qrcode/${key}/confirm`, { uid: this.uid });
    let last: unknown = null;
    const done = await until(async () => {
      const s = await r.api('GET', `/api/accounts/qrcode/${key}`);
      last = s.json;
      return s.status === 200 && s.json.state === 'confirmed' && s.json.uid === this.uid;
    }, 30_000);
    if (!done) throw new InvariantError(`QR login of ${this.uid} not confirmed: ${JSON.stringify(last)}`);
  }
  private async byCli(r: RealSystem): Promise<void> {
    const p = startCli(['login', r.dir]);
    try {
      const [, key] = await p.waitFor('stdout', /QR key: ([0-9a-f]{32})/, 60_000);
      await r.control(`/_sim/qrcode/${key}/scan`, {});
      await r.control(`/_sim/qrcode/${key}/confirm`, { uid: this.uid });
      const { code } = await p.exit;
      if (code !== 0) throw new InvariantError(`liverec login exited ${code}: ${p.stderr().slice(-500)}`);
    } finally {
      p.child.kill('SIGKILL');
    }
    let last: unknown = null;
    const seen = await until(async () => {
      const list = await r.api('GET', '/api/accounts');
      last = list.json;
      return list.status === 200 && (list.json as { uid: number; state: string }[]).some((a) => a.uid === this.uid && a.state === 'valid');
    }, FILE_RELOAD_MS + TIMING.slackMs);
    if (!seen) throw new InvariantError(`the running liverec did not list account ${this.uid} saved by \`liverec login\`: ${JSON.stringify(last)}`);
  }
  toString(): string {
    return `${this.cli ? 'cliLogin' : 'qrLogin'}(${this.name})`;
  }
}

/**
 * The service asks for a refresh (cookie/info `refresh: true`): liverec refreshes within one check and confirms the old
 * token; rooms record on in the files they have (no FileOpening meanwhile, except rooms whose files the model itself
 * is changing: a header change or a loss just made).
 */
export class NeedsRefresh extends AccountCommand {
  protected candidates = valid;
  protected async act(m: Model, r: RealSystem): Promise<void> {
    const sim = (): { confirms: number } => r.sim.passport.accounts.get(this.uid)!;
    const confirms = sim().confirms;
    const from = Date.now();
    await r.control(`/_sim/accounts/${this.uid}/needs-refresh`, {});
    if (!(await until(() => sim().confirms > confirms, checkBoundMs()))) throw new InvariantError(`account ${this.uid}: no confirmed refresh within one check`);
    const sessions = [...r.sim.passport.sessions.values()].filter((s) => s.uid === this.uid && s.valid).length;
    if (sessions !== 1) throw new InvariantError(`account ${this.uid}: ${sessions} valid sessions after the refresh (the old one must be retired)`);
    // Settings reach the rooms after the refresh: give them a moment, then no steady room may have opened a file.
    await sleep(1000);
    const steady = new Set([...m.rooms.values()].filter((x) => x.recording && (m.filesChanging.get(x.roomId) ?? 0) < from).map((x) => x.roomId));
    const opened = [...fileEvents(r)].filter(([, f]) => steady.has(f.roomId) && f.opening.some((e) => e.receivedAt >= from)).map(([p]) => p);
    if (opened.length) throw new InvariantError(`the refresh of ${this.uid} opened new files: ${opened.join(', ')}`);
  }
  toString(): string {
    return `needsRefresh(${this.name})`;
  }
}

/** The account logs out elsewhere: liverec finds it within one check, and its rooms record on (next account or guest). */
export class Logout extends AccountCommand {
  protected candidates = valid;
  protected async act(m: Model, r: RealSystem): Promise<void> {
    await r.control(`/_sim/accounts/${this.uid}/logout`, {});
    m.accounts.set(this.uid, 'logged-out');
    let last: unknown = null;
    const seen = await until(async () => {
      const res = await r.api('GET', '/api/accounts');
      last = res.json;
      const a = res.status === 200 ? (res.json as { uid: number; state: string; rooms: number[] }[]).find((x) => x.uid === this.uid) : undefined;
      return a?.state === 'logged-out' && a.rooms.length === 0;
    }, checkBoundMs());
    if (!seen) throw new InvariantError(`account ${this.uid} logged out, liverec still says ${JSON.stringify(last)}`);
  }
  toString(): string {
    return `logout(${this.name})`;
  }
}
