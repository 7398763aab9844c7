// The account pool's owner: QR logins, the daily check and refresh of each login, and the cookie each room records with.
import type { ConfigStore } from '../config/store.js';
import type { RoomSettings } from '../config/fields.js';
import { errorCode } from '../errors.js';
import { logger, roomLogger } from '../log/logger.js';
import { AccountPool } from './account-pool.js';
import { AccountStore, type StoredAccount } from './account-store.js';
import type { AccountBackend } from './account-backend.js';
import { loginFields } from './cookie-jar.js';
import { importConfigCookie } from './config-account.js';
import { PassportClient, passportHosts } from './passport-client.js';
import { QrLogins, type QrStart, type QrStatus } from './qr-logins.js';
import { refreshAccount } from './refresh-account.js';

/** What the API, GraphQL and the UI may see of an account: never its cookie or refresh token. */
export interface AccountView {
  uid: number;
  name: string;
  face: string;
  source: 'qr' | 'config';
  state: StoredAccount['state'];
  addedAt: string;
  validUntil: string | null;
  lastRefreshed: string | null;
  lastChecked: string | null;
  lastError: string | null;
  /** Rooms recording with this account now (RecordingAccount auto or its uid). */
  rooms: number[];
}

export interface AccountServiceOptions {
  workDir: string;
  config: ConfigStore;
  /** Rooms must get their settings again (an account's cookie or usability changed). */
  onChange: () => void;
  /** A login that can no longer be used or refreshed (the notifier). */
  notify?: (message: string, extra: Record<string, unknown>) => void;
  /** Where the logins live; default <workDir>/.liverec/accounts.json (a cluster: PostgreSQL). */
  store?: AccountBackend;
}

const iso = (t: number | null): string | null => (t === null ? null : new Date(t).toISOString());

/**
 * A room's answer that shows a logged-out state checks its account at once, then not again for this long: a room
 * whose login the service keeps answering as a guest (while cookie/info says it is fine) costs one check in ten
 * minutes, not one per answer.
 */
const ANSWER_CHECK_GAP_MS = 10 * 60_000;

export class AccountService {
  private accounts: StoredAccount[] = [];
  private imported: StoredAccount | null = null;
  private readonly store: AccountBackend;
  private reloader: NodeJS.Timeout | null = null;
  /** Bumped by every local change: a re-read begun before it must not undo it. */
  private generation = 0;
  private readonly pool = new AccountPool();
  private readonly qr: QrLogins;
  private readonly lastChoice = new Map<number, number | null>();
  private timer: NodeJS.Timeout | null = null;
  private checking = false;
  /** Checks under way, by uid: a second asker waits for the same check (never two refreshes of one login). */
  private readonly inFlight = new Map<number, Promise<void>>();
  /** When a room's answer last made an account's check, by uid. */
  private readonly answerChecks = new Map<number, number>();
  private readonly log = logger().child({ component: 'accounts' });

  constructor(private readonly options: AccountServiceOptions) {
    this.store = options.store ?? new AccountStore(options.workDir);
    this.qr = new QrLogins(() => this.client(), (account) => this.added(account));
  }

  async start(): Promise<void> {
    const { accounts, problem } = await this.store.loadAll();
    if (problem) this.log.error({ code: 'ACCOUNTS_FILE_DAMAGED' }, problem);
    this.accounts = accounts;
    if (this.store.reloadMs !== null) {
      this.reloader = setInterval(() => void this.reload(), this.store.reloadMs);
      this.reloader.unref();
    }
    this.syncImported(this.options.config.effective('Cookie') ?? '');
    // Checked at the interval's pace (the web client checks once a day); each account waits for its own turn.
    const every = Math.min(60_000, Math.max(500, this.intervalMs() / 4));
    this.timer = setInterval(() => void this.checkDue(), every);
    this.timer.unref();
    void this.checkDue();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.reloader) clearInterval(this.reloader);
    this.timer = this.reloader = null;
  }

  list(): AccountView[] {
    return this.all().map((a) => ({
      uid: a.uid, name: a.name, face: a.face, source: a.source, state: a.state, addedAt: new Date(a.addedAt).toISOString(),
      validUntil: iso(a.validUntil), lastRefreshed: iso(a.lastRefreshed), lastChecked: iso(a.lastChecked), lastError: a.lastError,
      rooms: this.pool.roomsOf(a.uid),
    }));
  }

  startQr(): Promise<QrStart> {
    return this.qr.start();
  }

  qrStatus(key: string): Promise<QrStatus | null> {
    return this.qr.status(key);
  }

  /** Forgets a saved account (an imported one is removed by clearing Cookie); false when there is none. */
  async remove(uid: number): Promise<boolean> {
    if (!(await this.store.delete(uid))) return false;
    this.generation++;
    this.accounts = this.accounts.filter((a) => a.uid !== uid);
    this.log.info({ uid }, 'account removed');
    this.options.onChange();
    return true;
  }

  /** Checks one account now and refreshes it when the service asks; null when there is none. */
  async refresh(uid: number): Promise<AccountView | null> {
    const a = this.all().find((x) => x.uid === uid);
    if (!a) return null;
    await this.check(a, true);
    return this.list().find((x) => x.uid === uid) ?? null;
  }

  /** The Cookie header a room records with ('' = guest), by its RecordingAccount; a change of account is logged. */
  cookieFor(roomId: number, settings: RoomSettings): string {
    this.syncImported(settings.Cookie ?? '');
    const all = this.all();
    const choice = this.pool.choose(roomId, settings.RecordingAccount ?? 'auto', all.map((a) => ({ uid: a.uid, usable: a.state !== 'logged-out' })));
    const before = this.lastChoice.get(roomId);
    if (before !== choice.uid) {
      this.lastChoice.set(roomId, choice.uid);
      if (before !== undefined || choice.uid !== null) roomLogger(roomId).info({ account: choice.uid ?? 'guest' }, `records with ${choice.uid === null ? 'no account (guest)' : `account ${choice.uid}`}: ${choice.why}`);
    }
    return choice.uid === null ? '' : all.find((a) => a.uid === choice.uid)!.cookie;
  }

  /**
   * A room's answer to a call made with its login treated it as a guest (play info's guest cap despite a SESSDATA):
   * the room's account is checked now instead of at its daily turn; a logged-out result moves its rooms on (the
   * usual fallback: the next account, then guest with a notification).
   */
  loginIgnored(roomId: number, why: string): void {
    const uid = this.lastChoice.get(roomId);
    const a = uid == null ? undefined : this.all().find((x) => x.uid === uid);
    if (!a || a.state === 'logged-out' || this.inFlight.has(a.uid)) return;
    const last = this.answerChecks.get(a.uid);
    if (last !== undefined && Date.now() - last < ANSWER_CHECK_GAP_MS) return;
    this.answerChecks.set(a.uid, Date.now());
    roomLogger(roomId).info({ account: a.uid, code: 'ACCOUNT_ANSWERED_AS_GUEST' }, `the service answered account ${a.uid} as a guest (${why}); checking the login now`);
    this.check(a, true).catch((err: unknown) => this.log.error({ uid: a.uid, code: errorCode(err) }, `account ${a.uid} could not be checked: ${(err as Error).message}`));
  }

  forgetRoom(roomId: number): void {
    this.pool.forget(roomId);
    this.lastChoice.delete(roomId);
  }

  /** Every cookie and token value held: what a test greps every output for. */
  secrets(): string[] {
    return this.all().flatMap((a) => [a.cookie, a.refreshToken, loginFields(a.cookie).sessdata, loginFields(a.cookie).csrf]).filter((s) => s.length >= 8);
  }

  private all(): StoredAccount[] {
    return this.imported && !this.accounts.some((a) => a.uid === this.imported!.uid) ? [...this.accounts, this.imported] : this.accounts;
  }

  private client(): PassportClient {
    return new PassportClient(passportHosts(this.options.config.effective('LiveApiHost') ?? ''));
  }

  private intervalMs(): number {
    return Math.max(1, this.options.config.effective('AccountCheckInterval')) * 1000;
  }

  /** The global Cookie of brec's config as an account, rebuilt when the setting changes. */
  private syncImported(cookie: string): void {
    if ((this.imported?.cookie ?? '') === cookie.trim() || (this.imported === null && cookie.trim() === '')) return;
    this.imported = importConfigCookie(cookie, this.imported);
  }

  private async added(account: StoredAccount): Promise<void> {
    await this.store.put(account);
    this.generation++;
    this.accounts = [...this.accounts.filter((a) => a.uid !== account.uid), account];
    this.log.info({ uid: account.uid, name: account.name }, 'account logged in by QR code');
    this.options.onChange();
  }

  private async checkDue(): Promise<void> {
    // One pass at a time (a slow login service must not stack passes); a flag, not a held promise, so that a pass
    // that finishes without awaiting cannot leave itself marked as running.
    if (this.checking) return;
    this.checking = true;
    try {
      const now = Date.now();
      for (const a of this.all()) if (a.state !== 'logged-out' && now - (a.lastChecked ?? 0) >= this.intervalMs()) await this.check(a, false);
    } finally {
      this.checking = false;
    }
  }

  private check(a: StoredAccount, forced: boolean): Promise<void> {
    const running = this.inFlight.get(a.uid);
    if (running) return running;
    const done = this.checkNow(a, forced).finally(() => this.inFlight.delete(a.uid));
    this.inFlight.set(a.uid, done);
    return done;
  }

  /**
   * A saved login is checked under the store's claim, on the account as stored after the claim was taken: another
   * node of a cluster may have checked or refreshed it meanwhile (its new cookie is then used, not refreshed again).
   * An imported login (config's Cookie) belongs to this process and is checked as it is.
   */
  private async checkNow(seen: StoredAccount, forced: boolean): Promise<void> {
    if (seen.source !== 'qr') return this.checkHeld(seen, seen, forced);
    let a: StoredAccount | null;
    try {
      a = await this.store.claim(seen.uid);
    } catch (err) {
      this.log.warn({ uid: seen.uid, code: errorCode(err) }, `account ${seen.uid} not checked: ${this.store.where} could not be reached (${(err as Error).message})`);
      return;
    }
    if (!a) {
      this.log.debug({ uid: seen.uid }, 'account is being checked elsewhere; its result comes with the next read');
      return;
    }
    try {
      // Checked elsewhere since this process decided to: the daily check is done; a forced one checks the new login.
      if (forced || a.lastChecked === seen.lastChecked) await this.checkHeld(a, seen, forced);
    } finally {
      await this.saveChecked(a);
      this.generation++;
      if (this.accounts.some((x) => x.uid === a.uid)) this.accounts = this.accounts.map((x) => (x.uid === a.uid ? a : x));
    }
    if (a.cookie !== seen.cookie || a.state !== seen.state) this.options.onChange();
  }

  /**
   * Writes a check's result and frees the claim. A refreshed login must reach the store (the old cookie is retired),
   * so a failed write is tried again while the claim (60 s) lasts; this process uses the new login either way.
   */
  private async saveChecked(a: StoredAccount): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.store.finish(a);
      } catch (err) {
        if (attempt >= 5) {
          this.log.error({ uid: a.uid, code: errorCode(err) }, `account ${a.uid}: the checked login could not be saved in ${this.store.where} (${(err as Error).message})`);
          return;
        }
        await new Promise((r) => setTimeout(r, attempt * 2000));
      }
    }
  }

  /** Checks `a` in place; `seen` is what this process's rooms use now (an imported login: the same object). */
  private async checkHeld(a: StoredAccount, seen: StoredAccount, forced: boolean): Promise<void> {
    const wasState = a.state;
    const before = seen.cookie;
    try {
      // brec's global Cookie in a cluster is one setting that every node holds: a refresh by one node would retire the
      // cookie the others use, with no claim to stop two nodes refreshing it at once. It is checked, never refreshed.
      const refusal = a.source === 'config' && this.store.shared ? 'in a cluster the global Cookie is not refreshed (every node shares it); log in by QR code instead' : null;
      const outcome = await refreshAccount(this.client(), a, refusal);
      if (outcome === 'refreshed') this.log.info({ uid: a.uid }, 'account login refreshed');
    } catch (err) {
      a.lastError = `${errorCode(err)}: ${(err as Error).message}`;
      a.state = errorCode(err) === 'ACCOUNT_LOGGED_OUT' ? 'logged-out' : 'refresh-failed';
      a.lastChecked = Date.now();
      this.log.warn({ uid: a.uid, code: errorCode(err), forced }, `account ${a.uid} could not be checked or refreshed`);
    }
    if (a.source !== 'qr') this.persist(a);
    // Told once, when a login stops working (not at every later check that finds it the same).
    if (wasState !== a.state && a.state !== 'valid') this.lost(a);
    if (a.source !== 'qr' && (a.cookie !== before || wasState !== a.state)) this.options.onChange();
  }

  private lost(a: StoredAccount): void {
    const usableLeft = this.all().some((x) => x.uid !== a.uid && x.state !== 'logged-out');
    const what = a.state === 'logged-out' ? 'is logged out' : 'can no longer be refreshed';
    const message = `account ${a.name || a.uid} (${a.uid}) ${what}${a.state === 'logged-out' ? (usableLeft ? '; its rooms move to another account' : '; its rooms record as a guest') : ''}`;
    this.log.warn({ uid: a.uid, state: a.state }, message);
    this.options.notify?.(message, { uid: a.uid, state: a.state });
  }

  /** Accounts other writers added, removed, checked or refreshed; rooms get a changed cookie with their next settings. */
  private async reload(): Promise<void> {
    const generation = this.generation;
    let loaded: StoredAccount[];
    try {
      let problem: string | null;
      ({ accounts: loaded, problem } = await this.store.loadAll());
      if (problem) this.log.error({ code: 'ACCOUNTS_FILE_DAMAGED' }, problem);
    } catch (err) {
      this.log.warn({ code: errorCode(err) }, `accounts could not be read from ${this.store.where}: ${(err as Error).message}`);
      return;
    }
    if (generation !== this.generation) return;
    const key = (list: StoredAccount[]) => list.map((a) => `${a.uid}:${a.state}:${a.cookie}`).sort().join('\n');
    const changed = key(loaded) !== key(this.accounts);
    this.accounts = loaded;
    if (changed) this.options.onChange();
  }

  private persist(a: StoredAccount): void {
    if (a.cookie !== (this.options.config.effective('Cookie') ?? '').trim()) {
      // An imported login that liverec refreshed: its new cookie replaces the old one in config.json.
      this.options.config.global.Cookie = a.cookie;
      this.options.config.save();
    }
  }
}
