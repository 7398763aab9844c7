// The danmaku heat under a player: one bar per bucket (GET /api/file/danmaku-density), markers and suggestions on it; a click seeks.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { t } from '../i18n';

export interface Bucket { startS: number; danmaku: number; superChats: number; gifts: number; guards: number }
export interface Density { bucketS: number; buckets: Bucket[]; totals: Omit<Bucket, 'startS'> }
export interface Marker { id: string; atMs: number; label: string; createdAt: string }
export interface Window { startMs: number; endMs: number; count: number }

/** A time on a recording's timeline as [h:]mm:ss.d (language-neutral, as a player shows it). */
export function clock(ms: number): string {
  const ds = Math.floor(Math.max(0, ms) / 100);
  const s = Math.floor(ds / 10);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = `${String(s % 60).padStart(2, '0')}.${ds % 10}`;
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mm}:${ss}` : `${mm}:${ss}`;
}

const heat = (b: Bucket): number => b.danmaku + b.superChats + b.gifts + b.guards;

/** The density of a recording (null while loading or when it has no XML); `refresh` changes reload it (live: the XML grows). */
export function useDensity(path: string, bucketS: number, refresh: unknown = 0): Density | null {
  const [d, setD] = useState<Density | null>(null);
  useEffect(() => {
    let live = true;
    api<Density>('GET', `api/file/danmaku-density?path=${encodeURIComponent(path)}&bucketS=${bucketS}`).then((x) => live && setD(x), () => live && setD(null));
    return () => void (live = false);
  }, [path, bucketS, refresh]);
  return d;
}

export interface HeatBarProps {
  density: Density | null;
  /** Seconds the bar spans (the video's duration; at least the last bucket's end). */
  spanS: number;
  now: number;
  markers: Marker[];
  windows?: Window[];
  onSeek?(seconds: number): void;
}

export function HeatBar({ density, spanS, now, markers, windows = [], onSeek }: HeatBarProps) {
  if (!density) return <p class="hint" data-heat="none">{t('clips.noHeat')}</p>;
  const span = Math.max(spanS, density.buckets.length * density.bucketS, 1);
  const max = Math.max(1, ...density.buckets.map(heat));
  const pct = (s: number): string => `${Math.min(100, Math.max(0, (s / span) * 100))}%`;
  const total = heat({ startS: 0, ...density.totals });
  return (
    <div class="heat" data-heat={total} title={t('clips.heat')}
      onClick={(e) => {
        const r = e.currentTarget.getBoundingClientRect();
        onSeek?.(((e.clientX - r.left) / r.width) * span);
      }}>
      {windows.map((w) => <div key={`w${w.startMs}`} class="heat-window" style={{ left: pct(w.startMs / 1000), width: pct((w.endMs - w.startMs) / 1000) }} />)}
      {density.buckets.map((b) => (
        <div key={b.startS} class="heat-bucket" data-count={heat(b)} title={`${clock(b.startS * 1000)} · ${t('clips.count', { n: heat(b) })}`}
          style={{ left: pct(b.startS), width: pct(density.bucketS), height: `${(heat(b) / max) * 100}%` }} />
      ))}
      {markers.map((m) => <div key={m.id} class="heat-marker" data-marker={m.atMs} title={`${clock(m.atMs)} ${m.label}`} style={{ left: pct(m.atMs / 1000) }} />)}
      <div class="heat-now" style={{ left: pct(now) }} />
    </div>
  );
}
