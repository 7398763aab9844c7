// The web login's HTTP calls (QR login, nav, cookie refresh), from the main thread only, by the documented flow.
import { clientOptions } from '../bilibili/client-options.js';
import { DEFAULT_USER_AGENT } from '../bilibili/headers.js';
import { LiverecError } from '../errors.js';
import { applySetCookies } from './cookie-jar.js';
import { correspondPath } from './correspond-path.js';

/*
 * Facts from bilibili-API-collect (commit 7ffb221427c963e10f0861c8cf10848a0d51b297): docs/login/login_action/QR.md
 * (generate → url + qrcode_key, 180 s; poll → 86101 not scanned, 86090 scanned, 86038 expired, 0 with Set-Cookie and
 * refresh_token) and docs/login/cookie_refresh.md (cookie/info → refresh, timestamp; correspond/1/{path} → the
 * refresh_csrf in <div id="1-name">; cookie/refresh → new cookies and refresh_token, 86095 on a mismatch;
 * confirm/refresh with the old refresh_token and the new bili_jct).
 */

export interface PassportHosts {
  passport: string;
  www: string;
  /** Base of /x/web-interface/nav. */
  main: string;
}

/** The service's hosts for the default LiveApiHost; a simulator or proxy at LiveApiHost serves them all. */
export function passportHosts(liveApiHost: string): PassportHosts {
  const o = clientOptions({ liveApiHost });
  const own = o.liveApiHost !== 'https://api.live.bilibili.com';
  return { passport: own ? o.liveApiHost : 'https://passport.bilibili.com', www: own ? o.liveApiHost : 'https://www.bilibili.com', main: o.mainApiHost };
}

export type QrPoll =
  | { state: 'waiting' | 'scanned' | 'expired' }
  | { state: 'confirmed'; cookie: string; refreshToken: string; expiresAt: number | null };

export interface NavInfo {
  isLogin: boolean;
  uid: number;
  name: string;
  face: string;
}

const TIMEOUT_MS = 10_000;
const MAX_BODY = 1024 * 1024;

export class PassportClient {
  constructor(readonly hosts: PassportHosts, private readonly userAgent = DEFAULT_USER_AGENT) {}

  async generateQr(): Promise<{ key: string; url: string }> {
    const data = await this.json('GET', `${this.hosts.passport}/x/passport-login/web/qrcode/generate`, '');
    const key = String(data.data?.qrcode_key ?? '');
    const url = String(data.data?.url ?? '');
    if (data.code !== 0 || !/^[0-9a-zA-Z]{1,64}$/.test(key) || !url) throw new LiverecError('ACCOUNT_QR_FAILED', `the QR code could not be made (code ${data.code})`);
    return { key, url };
  }

  async pollQr(key: string): Promise<QrPoll> {
    const { body, setCookies } = await this.request('GET', `${this.hosts.passport}/x/passport-login/web/qrcode/poll?qrcode_key=${encodeURIComponent(key)}`, '');
    const d = body.data ?? {};
    switch (Number(d.code)) {
      case 86101: return { state: 'waiting' };
      case 86090: return { state: 'scanned' };
      case 86038: return { state: 'expired' };
      case 0: {
        const { cookie, expiresAt } = applySetCookies('', setCookies);
        if (!/SESSDATA=/.test(cookie)) throw new LiverecError('ACCOUNT_QR_FAILED', 'the login answer set no SESSDATA cookie');
        return { state: 'confirmed', cookie, refreshToken: String(d.refresh_token ?? ''), expiresAt };
      }
      default:
        throw new LiverecError('ACCOUNT_QR_FAILED', `unexpected QR poll answer (code ${body.code}/${d.code})`);
    }
  }

  async nav(cookie: string): Promise<NavInfo> {
    const body = await this.json('GET', `${this.hosts.main}/x/web-interface/nav`, cookie);
    const d = body.data ?? {};
    const uid = Number(d.mid ?? 0);
    return { isLogin: body.code === 0 && d.isLogin === true && uid > 0, uid, name: String(d.uname ?? ''), face: String(d.face ?? '') };
  }

  /** Whether the service wants this login refreshed; `loggedOut` when it answers -101. */
  async cookieInfo(cookie: string, csrf: string): Promise<{ loggedOut: boolean; refresh: boolean; timestamp: number }> {
    const body = await this.json('GET', `${this.hosts.passport}/x/passport-login/web/cookie/info?csrf=${encodeURIComponent(csrf)}`, cookie);
    if (body.code === -101) return { loggedOut: true, refresh: false, timestamp: 0 };
    if (body.code !== 0) throw new LiverecError('ACCOUNT_REFRESH_FAILED', `cookie/info answered ${body.code}`);
    return { loggedOut: false, refresh: body.data?.refresh === true, timestamp: Number(body.data?.timestamp ?? Date.now()) };
  }

  /** The refresh_csrf of the correspond page for this moment. */
  async refreshCsrf(cookie: string, timestampMs: number): Promise<string> {
    const res = await this.fetchRaw('GET', `${this.hosts.www}/correspond/1/${correspondPath(timestampMs)}`, cookie);
    const html = await readCapped(res);
    const m = /<div id="1-name">([0-9a-zA-Z]{1,128})<\/div>/.exec(html);
    if (res.status !== 200 || !m) throw new LiverecError('ACCOUNT_REFRESH_FAILED', `the correspond page gave no refresh_csrf (HTTP ${res.status})`);
    return m[1]!;
  }

  /** cookie/refresh: the new cookie (old one updated by Set-Cookie) and refresh token. */
  async refreshCookie(cookie: string, csrf: string, refreshCsrf: string, refreshToken: string): Promise<{ cookie: string; refreshToken: string; expiresAt: number | null }> {
    const form = new URLSearchParams({ csrf, refresh_csrf: refreshCsrf, source: 'main_web', refresh_token: refreshToken }).toString();
    const { body, setCookies } = await this.request('POST', `${this.hosts.passport}/x/passport-login/web/cookie/refresh`, cookie, form);
    if (body.code !== 0) throw new LiverecError(body.code === -101 ? 'ACCOUNT_LOGGED_OUT' : 'ACCOUNT_REFRESH_FAILED', `cookie/refresh answered ${body.code}`);
    const next = applySetCookies(cookie, setCookies);
    return { cookie: next.cookie, refreshToken: String(body.data?.refresh_token ?? ''), expiresAt: next.expiresAt };
  }

  /** confirm/refresh: retires the old login (new cookie's bili_jct, the refresh token from before the refresh). */
  async confirmRefresh(newCookie: string, newCsrf: string, oldRefreshToken: string): Promise<void> {
    const form = new URLSearchParams({ csrf: newCsrf, refresh_token: oldRefreshToken }).toString();
    const body = await this.json('POST', `${this.hosts.passport}/x/passport-login/web/confirm/refresh`, newCookie, form);
    if (body.code !== 0) throw new LiverecError('ACCOUNT_REFRESH_FAILED', `confirm/refresh answered ${body.code}`);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private async json(method: string, url: string, cookie: string, form?: string): Promise<any> {
    return (await this.request(method, url, cookie, form)).body;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private async request(method: string, url: string, cookie: string, form?: string): Promise<{ body: any; setCookies: string[] }> {
    const res = await this.fetchRaw(method, url, cookie, form);
    const text = await readCapped(res);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new LiverecError('ACCOUNT_BAD_ANSWER', `${new URL(url).pathname} answered HTTP ${res.status} without JSON`);
    }
    if (!body || typeof body !== 'object') throw new LiverecError('ACCOUNT_BAD_ANSWER', `${new URL(url).pathname} answered no JSON object`);
    return { body, setCookies: res.headers.getSetCookie() };
  }

  private async fetchRaw(method: string, url: string, cookie: string, form?: string): Promise<Response> {
    const headers: Record<string, string> = { 'User-Agent': this.userAgent, Referer: 'https://www.bilibili.com/', Origin: 'https://www.bilibili.com' };
    if (cookie) headers.Cookie = cookie;
    if (form !== undefined) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    try {
      return await fetch(url, { method, headers, body: form, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (err) {
      // The URL carries no secret, but the error text stays generic: a cookie never reaches an error or a log.
      throw new LiverecError('ACCOUNT_NETWORK', `${new URL(url).pathname}: ${(err as Error).name}`);
    }
  }
}

async function readCapped(res: Response): Promise<string> {
  const len = Number(res.headers.get('content-length') ?? 0);
  if (len > MAX_BODY) throw new LiverecError('ACCOUNT_BAD_ANSWER', `answer of ${len} bytes is over ${MAX_BODY}`);
  const buf = Buffer.from(await res.arrayBuffer());
  if (buf.length > MAX_BODY) throw new LiverecError('ACCOUNT_BAD_ANSWER', `answer of ${buf.length} bytes is over ${MAX_BODY}`);
  return buf.toString('utf8');
}
