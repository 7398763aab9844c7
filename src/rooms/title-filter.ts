// TitleFilterPatterns (WebUI 2.15): regexes, one per line; a live title matching any of them is not auto-recorded.

/** True when `title` matches one of the patterns. Invalid patterns are reported once and ignored. */
export function titleFiltered(patterns: string | null, title: string, onInvalid: (pattern: string, err: Error) => void): boolean {
  if (!patterns) return false;
  for (const line of patterns.split(/\r?\n/)) {
    const pattern = line.trim();
    if (!pattern) continue;
    let re: RegExp;
    try {
      re = cached(pattern);
    } catch (err) {
      onInvalid(pattern, err as Error);
      continue;
    }
    if (re.test(title)) return true;
  }
  return false;
}

const cache = new Map<string, RegExp>();

function cached(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (!re) {
    re = new RegExp(pattern, 'u');
    if (cache.size > 256) cache.clear();
    cache.set(pattern, re);
  }
  return re;
}
