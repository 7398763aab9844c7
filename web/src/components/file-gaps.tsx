// The gaps badge of a recording in the file list: read from its `<file>.gaps.json` sidecar (present only when it has gaps).
import { useEffect, useState } from 'preact/hooks';
import { duration } from '../format';
import { has, t } from '../i18n';

export interface Gap { StartMs: number; DurationMs: number; Reason: 'reconnect' | 'hls-segment' | 'timestamp-jump' }

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
  const total = gaps.reduce((n, g) => n + g.DurationMs, 0);
  const reason = (r: string): string => (has(`gaps.reason.${r}`) ? t(`gaps.reason.${r}`) : r);
  const detail = gaps.map((g) => t('gaps.at', { start: duration(g.StartMs), len: seconds(g.DurationMs), reason: reason(g.Reason) })).join('\n');
  return <span class="badge warn" data-gaps={gaps.length} title={detail}>{t('gaps.count', { n: gaps.length, total: seconds(total) })}</span>;
}
