// QR logins under way: each one's key, expiry and last known state; polled when asked, at most once a second.
import { LiverecError } from '../errors.js';
import type { StoredAccount } from './account-store.js';
import { loginFields } from './cookie-jar.js';
import type { PassportClient } from './passport-client.js';

/** The service's QR key lives 180 s (QR.md). */
export const QR_TTL_MS = 180_000;
const POLL_GAP_MS = 1000;
const MAX_PENDING = 16;

export interface QrStart {
  key: string;
  url: string;
  expiresAt: string;
}

export interface QrStatus {
  state: 'waiting' | 'scanned' | 'confirmed' | 'expired';
  uid?: number;
}

interface Pending {
  expiresAt: number;
  status: QrStatus;
  lastPoll: number;
  polling: Promise<QrStatus> | null;
}

export class QrLogins {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly client: () => PassportClient, private readonly onLogin: (account: StoredAccount) => void | Promise<void>) {}

  async start(): Promise<QrStart> {
    const now = Date.now();
    for (const [k, p] of this.pending) if (now > p.expiresAt + 60_000) this.pending.delete(k);
    if (this.pending.size >= MAX_PENDING) throw new LiverecError('ACCOUNT_QR_BUSY', `${MAX_PENDING} QR logins are already under way`);
    const { key, url } = await this.client().generateQr();
    const expiresAt = now + QR_TTL_MS;
    this.pending.set(key, { expiresAt, status: { state: 'waiting' }, lastPoll: 0, polling: null });
    return { key, url, expiresAt: new Date(expiresAt).toISOString() };
  }

  /** The login's state; null for a key this process did not make. */
  async status(key: string): Promise<QrStatus | null> {
    const p = this.pending.get(key);
    if (!p) return null;
    if (p.status.state === 'confirmed' || p.status.state === 'expired') return p.status;
    if (Date.now() > p.expiresAt) return (p.status = { state: 'expired' });
    if (Date.now() - p.lastPoll < POLL_GAP_MS) return p.polling ?? p.status;
    // A poll that fails (the login service unreachable, an odd answer) keeps the last known state; the next ask retries.
    p.polling ??= this.poll(key, p).catch(() => p.status).finally(() => (p.polling = null));
    return p.polling;
  }

  private async poll(key: string, p: Pending): Promise<QrStatus> {
    p.lastPoll = Date.now();
    const client = this.client();
    const r = await client.pollQr(key);
    if (r.state !== 'confirmed') return (p.status = { state: r.state });
    const nav = await client.nav(r.cookie);
    const uid = nav.isLogin ? nav.uid : loginFields(r.cookie).uid;
    if (!uid) throw new LiverecError('ACCOUNT_QR_FAILED', 'the login gave no account id');
    const now = Date.now();
    // Confirmed only once the account is saved (a cluster's other nodes can see it from then on).
    await this.onLogin({
      uid, name: nav.name, face: nav.face, cookie: r.cookie, refreshToken: r.refreshToken, source: 'qr', state: 'valid', addedAt: now,
      validUntil: r.expiresAt, lastRefreshed: null, lastChecked: now, lastError: null,
    });
    return (p.status = { state: 'confirmed', uid });
  }
}
