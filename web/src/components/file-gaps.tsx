// The gaps badge of a recording in the file list: read from its `<file>.gaps.json` sidecar (present only when it has gaps).
import { useEffect, useState } from 'preact/hooks';
import { duration } from '../format';

export interface Gap { StartMs: number; DurationMs: number; Reason: 'reconnect' | 'hls-segment' | 'timestamp-jump' }

/** Local strings until the shared i18n table exists: the browser's language picks zh or en. */
const STRINGS = {
  en: {
    gaps: (n: number, total: string) => `${n} gap${n === 1 ? '' : 's'} · ${total}`,
    at: (start: string, len: string, reason: string) => `at ${start}: ${len} missing (${reason})`,
    reason: { reconnect: 'reconnect', 'hls-segment': 'HLS segment missing', 'timestamp-jump': 'timestamp jump' },
  },
  zh: {
    gaps: (n: number, total: string) => `${n} 处缺口 · 共 ${total}`,
    at: (start: string, len: string, reason: string) => `${start} 处缺少 ${len}（${reason}）`,
    reason: { reconnect: '重连', 'hls-segment': 'HLS 分片缺失', 'timestamp-jump': '时间戳跳变' },
  },
} as const;

export const gapStrings = (): (typeof STRINGS)['en' | 'zh'] => (/^zh\b/i.test(globalThis.navigator?.language ?? '') ? STRINGS.zh : STRINGS.en);

const seconds = (ms: number): string => (ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : duration(ms));

/** The sidecar of `name` in the listing, if any: files listed as `<name>.gaps.json`. */
export const sidecarOf = (name: string, names: Set<string>): string | null => (names.has(`${name}.gaps.json`) ? `${name}.gaps.json` : null);

export function FileGaps({ url }: { url: string }) {
  const [gaps, setGaps] = useState<Gap[] | null>(null);
  useEffect(() => {
    let live = true;
    fetch(url, { credentials: 'same-origin' }).then((r) => (r.ok ? r.json() : null)).then((b: { Gaps?: Gap[] } | null) => live && setGaps(b?.Gaps ?? []), () => live && setGaps([]));
    return () => void (live = false);
  }, [url]);
  return gaps ? <GapBadge gaps={gaps} /> : null;
}

/** The badge itself (also for the room page's files, whose gaps come with their FileClosed events). */
export function GapBadge({ gaps }: { gaps: readonly Gap[] }) {
  if (gaps.length === 0) return null;
  const t = gapStrings();
  const total = gaps.reduce((n, g) => n + g.DurationMs, 0);
  const detail = gaps.map((g) => t.at(duration(g.StartMs), seconds(g.DurationMs), t.reason[g.Reason] ?? g.Reason)).join('\n');
  return <span class="badge warn" data-gaps={gaps.length} title={detail}>{t.gaps(gaps.length, seconds(total))}</span>;
}
