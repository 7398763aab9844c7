// NotifyUrls, one per line, scheme-selected: ntfy(s)://, tgram://BOT/CHAT, bark(s)://, mailto(s)://, json(s)://.
import { LiverecError } from '../errors.js';

export type Target = (
  | { scheme: 'ntfy'; url: string; topic: string; auth: string | null; redacted: string }
  | { scheme: 'tgram'; api: string; bot: string; chat: string; redacted: string }
  | { scheme: 'bark'; url: string; redacted: string }
  | { scheme: 'mailto'; host: string; port: number; secure: boolean; user: string; pass: string; from: string; to: string; verifyTls: boolean; redacted: string }
  | { scheme: 'json'; url: string; auth: string | null; redacted: string }
) & {
  /** What must never be shown (token, password, key, Basic credentials): cut from every error text (src/log/redact.ts). */
  secrets: string[];
};

/** The secret parts of a URL: its user, password, Basic header and query values. */
const urlSecrets = (u: URL, auth: string | null): string[] =>
  [decodeURIComponent(u.username), decodeURIComponent(u.password), auth ?? '', ...[...u.searchParams.values()]].filter((x) => x !== '');

const basic = (u: URL): string | null =>
  u.username || u.password ? `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')}` : null;

/** One line → a target; throws NOTIFY_BAD_URL naming the scheme (never the secret parts). */
export function parseTarget(line: string): Target {
  if (/^tgram:\/\//i.test(line.trim())) return parseTelegram(line.trim());
  let u: URL;
  try {
    u = new URL(line.trim());
  } catch {
    throw new LiverecError('NOTIFY_BAD_URL', `not a notification URL: ${line.trim().split(':')[0]}://…`);
  }
  const scheme = u.protocol.replace(/:$/, '').toLowerCase();
  const tls = scheme.endsWith('s') && scheme !== 'tgram' && scheme !== 'ntfy' ? true : scheme === 'ntfys';
  const http = (s: boolean): string => (s ? 'https' : 'http');
  const hostPort = u.host;
  const path = u.pathname.replace(/^\/+/, '');
  switch (scheme) {
    case 'ntfy': case 'ntfys':
      if (!path) throw new LiverecError('NOTIFY_BAD_URL', 'ntfy:// needs a topic: ntfy://host/topic');
      return { scheme: 'ntfy', url: `${http(scheme === 'ntfys')}://${hostPort}`, topic: path, auth: basic(u), redacted: `${scheme}://${hostPort}/${path}`, secrets: urlSecrets(u, basic(u)) };
    case 'bark': case 'barks':
      if (!path) throw new LiverecError('NOTIFY_BAD_URL', 'bark:// needs a device key: bark://host/DEVICE_KEY');
      return { scheme: 'bark', url: `${http(scheme === 'barks')}://${hostPort}/${path}`, redacted: `${scheme}://${hostPort}/…`, secrets: [path, decodeURIComponent(path), ...urlSecrets(u, null)] };
    case 'mailto': case 'mailtos': {
      const to = decodeURIComponent(path);
      if (!u.hostname || !to.includes('@')) throw new LiverecError('NOTIFY_BAD_URL', 'mailto:// needs a server and a recipient: mailto://user:pass@smtp-host:587/to@example.com');
      const user = decodeURIComponent(u.username);
      return {
        scheme: 'mailto', host: u.hostname, port: Number(u.port || (scheme === 'mailtos' ? 465 : 587)), secure: scheme === 'mailtos',
        user, pass: decodeURIComponent(u.password), from: u.searchParams.get('from') ?? (user.includes('@') ? user : `liverec@${u.hostname}`), to,
        verifyTls: u.searchParams.get('verify') !== 'no', redacted: `${scheme}://${u.hostname}:${u.port || (scheme === 'mailtos' ? 465 : 587)}/${to}`,
        secrets: [decodeURIComponent(u.password)].filter((x) => x !== ''),
      };
    }
    case 'json': case 'jsons':
      return { scheme: 'json', url: `${http(tls)}://${hostPort}${u.pathname}${u.search}`, auth: basic(u), redacted: `${scheme}://${hostPort}${u.pathname}`, secrets: urlSecrets(u, basic(u)) };
    default:
      throw new LiverecError('NOTIFY_BAD_URL', `unknown notification scheme ${scheme}:// (ntfy, tgram, bark, mailto, json and their https forms)`);
  }
}

/** tgram://BOT_TOKEN/CHAT_ID[?api=URL]: a bot token (`123:abc`) is not a URL host, so the line is read by hand. */
function parseTelegram(line: string): Target {
  const [rest, query = ''] = line.slice('tgram://'.length).split('?');
  const [bot, chat] = rest!.split('/').map((x) => decodeURIComponent(x ?? ''));
  if (!bot || !chat) throw new LiverecError('NOTIFY_BAD_URL', 'tgram:// needs a bot token and a chat: tgram://BOT_TOKEN/CHAT_ID');
  const api = new URLSearchParams(query).get('api') ?? 'https://api.telegram.org';
  // The bot token goes into the API's path: an `api=` that is no http(s) URL would put it into a parse error.
  if (!/^https?:\/\/[^/?#\s]+/i.test(api)) throw new LiverecError('NOTIFY_BAD_URL', 'tgram://…?api= must be an http:// or https:// URL (for example api=https://api.telegram.org)');
  return { scheme: 'tgram', api: api.replace(/\/+$/, ''), bot, chat, redacted: `tgram://…/${chat}`, secrets: [bot] };
}

/** Every target of NotifyUrls; a bad line is reported and skipped, never fatal. */
export function parseTargets(text: string | null): { targets: Target[]; errors: string[] } {
  const targets: Target[] = [];
  const errors: string[] = [];
  for (const line of (text ?? '').split(/\r?\n/)) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    try {
      targets.push(parseTarget(line));
    } catch (err) {
      errors.push((err as Error).message);
    }
  }
  return { targets, errors };
}
