// The open-access guard (brec 2.11, with upstream's intended rule): without auth, only local/LAN clients, no proxies.
import { isIP } from 'node:net';
import type { MiddlewareHandler } from 'hono';
import type { ApiEnv } from './context.js';

/** Loopback, RFC 1918, IPv4 link-local, IPv6 loopback, link-local and unique-local; IPv4-mapped IPv6 is unwrapped. */
export function isLocalAddress(address: string): boolean {
  let ip = address.toLowerCase();
  const zone = ip.indexOf('%');
  if (zone >= 0) ip = ip.slice(0, zone);
  if (ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4) ip = ip.slice(7);
  const kind = isIP(ip);
  if (kind === 4) {
    const [a, b] = ip.split('.').map(Number) as [number, number];
    return a === 10 || a === 127 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  if (kind === 6) {
    if (ip === '::1') return true;
    const first = Number.parseInt(ip.split(':')[0] || '0', 16);
    return (first & 0xffc0) === 0xfe80 || (first & 0xfe00) === 0xfc00;
  }
  return false;
}

/** A Host header naming this machine or the LAN: localhost or a local IP literal (any port). */
export function isLocalHost(host: string): boolean {
  let h = host.trim().toLowerCase();
  if (h.startsWith('[')) h = h.slice(1, h.indexOf(']') < 0 ? undefined : h.indexOf(']'));
  else if (h.includes(':') && isIP(h) !== 6) h = h.slice(0, h.lastIndexOf(':'));
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h === 'localhost' || h.endsWith('.localhost') || isLocalAddress(h);
}

export const PROXY_HEADERS = ['x-real-ip', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'via', 'forwarded'] as const;

const MESSAGE = [
  '412 Precondition Failed',
  '',
  '录播姬 (liverec) 的 HTTP API 没有设置密码，只允许本机和局域网直接访问，不允许通过反向代理或公网访问。',
  '请设置 BREC_HTTP_BASIC_USER 和 BREC_HTTP_BASIC_PASS（或 --http-basic-user / --http-basic-pass）启用身份验证，',
  '或者在确认风险后设置 BREC_HTTP_OPEN_ACCESS（或 --http-open-access）关闭此检查。',
  '',
  'The HTTP API has no password, so it only answers clients on this machine or the local network, connecting directly',
  '(no reverse proxy, no public address, no public host name). Set BREC_HTTP_BASIC_USER and BREC_HTTP_BASIC_PASS',
  '(or --http-basic-user / --http-basic-pass) to enable authentication, or, if you accept the risk, set',
  'BREC_HTTP_OPEN_ACCESS (or --http-open-access) to turn this check off.',
].join('\n');

const escapeHtml = (s: string): string => s.replace(/[&<>]/g, (ch) => `&#${ch.charCodeAt(0)};`);
const HTML = `<!doctype html><html><head><meta charset="utf-8"><title>412 Precondition Failed</title></head><body><pre>${escapeHtml(MESSAGE)}</pre></body></html>`;

/**
 * Verdicts per address and per Host value: a client sends the same few on every request, and parsing them
 * (isIP's regular expressions) was ~3 % of the main thread under API load. Bounded, so varied junk cannot grow it.
 */
const MEMO_MAX = 256;
const addressMemo = new Map<string, boolean>();
const hostMemo = new Map<string, boolean>();
function memo(map: Map<string, boolean>, key: string, test: (k: string) => boolean): boolean {
  let v = map.get(key);
  if (v === undefined) {
    if (map.size >= MEMO_MAX) map.clear();
    map.set(key, (v = test(key)));
  }
  return v;
}

/** The guard's first check alone (memoised): the remote address is local. The front door asks it before reading a byte. */
export const isLocalClient = (remoteAddress: string | undefined): boolean => !!remoteAddress && memo(addressMemo, remoteAddress, isLocalAddress);

/** Why a request is refused, or null when it may pass. */
export function guardVerdict(remoteAddress: string | undefined, headers: Pick<Headers, 'has' | 'get'>): string | null {
  if (!isLocalClient(remoteAddress)) return 'remote address is not local';
  for (const h of PROXY_HEADERS) if (headers.has(h)) return `proxy header ${h}`;
  const host = headers.get('host');
  if (host !== null && !memo(hostMemo, host, isLocalHost)) return 'host is not local';
  return null;
}

export function openAccessGuard(): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const reason = guardVerdict(c.env?.incoming?.socket?.remoteAddress, c.req.raw.headers);
    if (!reason) return next();
    const html = (c.req.header('accept') ?? '').includes('text/html');
    return new Response(html ? HTML : MESSAGE, {
      status: 412,
      headers: { 'content-type': html ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8', 'x-liverec-guard': reason },
    });
  };
}
