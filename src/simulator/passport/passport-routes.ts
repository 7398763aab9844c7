// The simulator's web login: QR generate/poll, nav by cookie, cookie/info, the correspond page, cookie refresh and confirm.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson, sendText } from '../http-util.js';
import { PassportState, SIM_QR_TTL_MS, type SimSession } from './passport-state.js';

/*
 * Codes and shapes from bilibili-API-collect commit 7ffb221 (docs/login/login_action/QR.md, docs/login/cookie_refresh.md):
 * poll 86101 / 86090 / 86038 / 0; cookie/info -101; cookie/refresh -101, -111 (csrf), 86095 (refresh_csrf or token);
 * confirm/refresh -101, -111, -400. The correspond path is sealed with the service's public key, whose private half
 * nobody outside has: the simulator checks its shape (1024-bit ciphertext = 256 hex digits) and nothing more.
 */
export const PASSPORT_PATHS = [
  '/x/passport-login/web/qrcode/generate', '/x/passport-login/web/qrcode/poll', '/x/passport-login/web/cookie/info',
  '/x/passport-login/web/cookie/refresh', '/x/passport-login/web/confirm/refresh',
] as const;
const CORRESPOND = '/correspond/1/';

export function isPassportPath(path: string): boolean {
  return (PASSPORT_PATHS as readonly string[]).includes(path) || path.startsWith(CORRESPOND);
}

const ok = (data: unknown): Record<string, unknown> => ({ code: 0, message: '0', ttl: 1, ...(data === undefined ? {} : { data }) });
const fail = (code: number, message: string): Record<string, unknown> => ({ code, message, ttl: 1 });

async function form(req: IncomingMessage, url: URL): Promise<URLSearchParams> {
  const params = new URLSearchParams(url.searchParams);
  if (req.method === 'POST') {
    let text = '';
    for await (const c of req as AsyncIterable<Buffer>) {
      text += c.toString('utf8');
      if (text.length > 64 * 1024) break;
    }
    for (const [k, v] of new URLSearchParams(text)) params.set(k, v);
  }
  return params;
}

function poll(p: PassportState, res: ServerResponse, key: string): void {
  const q = p.qr.get(key);
  const answer = (code: number, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string | string[]> = {}): void => {
    const body = JSON.stringify(ok({ url: '', refresh_token: '', timestamp: 0, code, message, ...extra }));
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), ...headers });
    res.end(body);
  };
  if (!q || q.state === 'used' || Date.now() - q.createdAt > SIM_QR_TTL_MS) return answer(86038, '二维码已失效');
  if (q.state === 'waiting') return answer(86101, '未扫码');
  if (q.state === 'scanned') return answer(86090, '二维码已扫码未确认');
  q.state = 'used';
  const s = p.newSession(q.uid!);
  const url = `https://passport.biligame.com/crossDomain?DedeUserID=${s.uid}&Expires=15551000&SESSDATA=${s.sessdata}&bili_jct=${s.biliJct}&gourl=https%3A%2F%2Fpassport.bilibili.com`;
  answer(0, '', { url, refresh_token: s.refreshToken, timestamp: Date.now() }, { 'Set-Cookie': PassportState.setCookies(s) });
}

function refresh(p: PassportState, res: ServerResponse, s: SimSession, f: URLSearchParams): void {
  if (f.get('csrf') !== s.biliJct) return sendJson(res, 200, fail(-111, 'csrf 校验失败'));
  if (!s.refreshCsrf || f.get('refresh_csrf') !== s.refreshCsrf || f.get('refresh_token') !== s.refreshToken) return sendJson(res, 200, fail(86095, 'refresh_csrf 错误或 refresh_token 与 cookie 不匹配'));
  const next = p.newSession(s.uid, s.refreshToken);
  const account = p.account(s.uid);
  account.needsRefresh = false;
  account.refreshes++;
  const body = JSON.stringify(ok({ status: 0, message: '', refresh_token: next.refreshToken }));
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'Set-Cookie': PassportState.setCookies(next) });
  res.end(body);
}

function confirm(p: PassportState, res: ServerResponse, s: SimSession, f: URLSearchParams): void {
  if (f.get('csrf') !== s.biliJct) return sendJson(res, 200, fail(-111, 'csrf 校验失败'));
  const token = f.get('refresh_token');
  const old = [...p.sessions.values()].find((x) => x.uid === s.uid && x.refreshToken === token && x.valid && x !== s);
  if (!token || s.replaces !== token || !old) return sendJson(res, 200, fail(-400, '请求错误'));
  p.retire(old);
  s.replaces = null;
  p.account(s.uid).confirms++;
  sendJson(res, 200, ok(undefined));
}

export async function handlePassport(p: PassportState, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const path = url.pathname;
  if (path === '/x/passport-login/web/qrcode/generate') {
    const key = p.newQr();
    return sendJson(res, 200, ok({ url: `https://passport.bilibili.com/h5-app/passport/login/scan?navhide=1&qrcode_key=${key}&from=`, qrcode_key: key }));
  }
  if (path === '/x/passport-login/web/qrcode/poll') return poll(p, res, url.searchParams.get('qrcode_key') ?? '');
  const session = p.sessionOf(req.headers.cookie);
  if (path === '/x/passport-login/web/cookie/info') {
    const known = p.anySessionOf(req.headers.cookie);
    if (known) p.account(known.uid).checks++;
  }
  if (path.startsWith(CORRESPOND)) {
    if (!session || !/^[0-9a-f]{256}$/.test(path.slice(CORRESPOND.length))) return sendText(res, 404, '<!DOCTYPE html><html><body>404</body></html>', 'text/html; charset=utf-8');
    session.refreshCsrf = randomCsrf();
    return sendText(res, 200, `<!DOCTYPE html><html lang="zh-Hans"><head><title>Correspond</title></head><body><div id="1-name">${session.refreshCsrf}</div><div id="token-iframe-app"></div></body></html>`, 'text/html; charset=utf-8');
  }
  if (!session) return sendJson(res, 200, fail(-101, '账号未登录'));
  if (path === '/x/passport-login/web/cookie/info') return sendJson(res, 200, ok({ refresh: p.account(session.uid).needsRefresh, timestamp: Date.now() }));
  const f = await form(req, url);
  if (path === '/x/passport-login/web/cookie/refresh') return refresh(p, res, session, f);
  return confirm(p, res, session, f);
}

function randomCsrf(): string {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
}
