// The simulator's logins: QR keys, accounts and their sessions (SESSDATA), refresh tokens, as the web login keeps them.
import { createHash, randomBytes } from 'node:crypto';

/** The QR key lives 180 s (bilibili-API-collect docs/login/login_action/QR.md). */
export const SIM_QR_TTL_MS = 180_000;

export interface SimQr {
  createdAt: number;
  state: 'waiting' | 'scanned' | 'confirmed' | 'used';
  uid?: number;
}

export interface SimSession {
  uid: number;
  sessdata: string;
  biliJct: string;
  refreshToken: string;
  valid: boolean;
  /** The refresh_csrf the correspond page gave this session; '' before. */
  refreshCsrf: string;
  /** After cookie/refresh: the token of the session this one replaces, retired by confirm/refresh. */
  replaces: string | null;
}

export interface SimAccount {
  uid: number;
  uname: string;
  face: string;
  needsRefresh: boolean;
  refreshes: number;
  confirms: number;
  /** cookie/info calls made with one of this account's sessions, valid or retired (how often liverec checked it). */
  checks: number;
}

const hex = (bytes: number): string => randomBytes(bytes).toString('hex');

/** SESSDATA values logged out or retired, across every simulator of the process (the guest cap reads it). */
const retired = new Set<string>();

export function sessionRetired(sessdata: string): boolean {
  return retired.has(sessdata);
}

export class PassportState {
  readonly qr = new Map<string, SimQr>();
  readonly accounts = new Map<number, SimAccount>();
  /** By SESSDATA. */
  readonly sessions = new Map<string, SimSession>();

  newQr(now = Date.now()): string {
    const key = hex(16);
    this.qr.set(key, { createdAt: now, state: 'waiting' });
    return key;
  }

  account(uid: number): SimAccount {
    let a = this.accounts.get(uid);
    if (!a) this.accounts.set(uid, (a = { uid, uname: `sim-user-${uid}`, face: `https://i0.hdslb.com/bfs/face/sim-${uid}.jpg`, needsRefresh: false, refreshes: 0, confirms: 0, checks: 0 }));
    return a;
  }

  newSession(uid: number, replaces: string | null = null): SimSession {
    const s: SimSession = { uid, sessdata: `${hex(8)}%2C${Math.floor(Date.now() / 1000) + 180 * 86_400}%2C${hex(4)}`, biliJct: hex(16), refreshToken: hex(16), valid: true, refreshCsrf: '', replaces };
    this.sessions.set(s.sessdata, s);
    return s;
  }

  /** The valid session of a Cookie header, if any. */
  sessionOf(cookie: string | undefined): SimSession | null {
    const m = /(?:^|;\s*)SESSDATA=([^;\s]+)/.exec(cookie ?? '');
    const s = m ? this.sessions.get(m[1]!) : undefined;
    return s?.valid ? s : null;
  }

  /** The session of a Cookie header's SESSDATA, valid or retired. */
  anySessionOf(cookie: string | undefined): SimSession | null {
    const m = /(?:^|;\s*)SESSDATA=([^;\s]+)/.exec(cookie ?? '');
    return (m && this.sessions.get(m[1]!)) || null;
  }

  retire(s: SimSession): void {
    s.valid = false;
    retired.add(s.sessdata);
  }

  logout(uid: number): number {
    let n = 0;
    for (const s of this.sessions.values()) if (s.uid === uid && s.valid) (this.retire(s), n++);
    return n;
  }

  /** The cookies a login sets (QR poll, cookie/refresh), as Set-Cookie headers. */
  static setCookies(s: SimSession): string[] {
    const expires = new Date(Date.now() + 180 * 86_400_000).toUTCString();
    const attrs = `Path=/; Domain=bilibili.com; Expires=${expires}`;
    const md5 = createHash('md5').update(String(s.uid)).digest('hex').slice(0, 16);
    return [`SESSDATA=${s.sessdata}; ${attrs}; HttpOnly; Secure`, `bili_jct=${s.biliJct}; ${attrs}`, `DedeUserID=${s.uid}; ${attrs}`, `DedeUserID__ckMd5=${md5}; ${attrs}`, `sid=${hex(4)}; ${attrs}`];
  }
}
