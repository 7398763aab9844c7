// brec's list of host suffixes that never receive webhooks, and the URL check built on it.

/** Suffix match, case-insensitive, exactly as brec does it (so `xbaidu.com` is blocked too). */
export const BLOCKED_HOST_SUFFIXES: readonly string[] = [
  'test.example.com',
  'baidu.com',
  'qq.com',
  'google.com',
  'b23.tv',
  'bilibili.com',
  'bilibili.cn',
  'bilibili.tv',
  'bilicomic.com',
  'bilicomics.com',
  'bilivideo.com',
  'bilivideo.cn',
  'biligame.com',
  'biligame.net',
  'biliapi.com',
  'biliapi.net',
  'hdslb.com',
];

export function isBlockedHost(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return BLOCKED_HOST_SUFFIXES.some((suffix) => h.endsWith(suffix));
}

/** Why a configured URL is not used, or null when it is usable. */
export function rejectReason(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not an absolute URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `scheme ${parsed.protocol} is not http or https`;
  if (isBlockedHost(parsed.hostname)) return `host ${parsed.hostname} is blocked`;
  return null;
}
