// Under a player: the heat bar, markers (M or the button), a clip's start and end, and the suggested moments to accept.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { t } from '../i18n';
import { NoticeLine, useNotice } from './notice';
import { clock, HeatBar, useDensity, type Marker, type Window } from './heat-bar';

export interface ClipToolsProps {
  /** The recording, relative to the work directory. */
  path: string;
  /** Where the player is, seconds on the recording's timeline. */
  now: number;
  spanS: number;
  onSeek(seconds: number): void;
  /** Live preview: the XML grows, so the heat reloads; clips wait for the file to close. */
  live?: boolean;
  /** Marks another way than at `now` on `path` (live: at the file's live position); resolves with the marker. */
  markAt?(): Promise<Marker>;
}

const fmt = clock;

/** Dispatched on window when a clip was queued from a player. */
export const CLIP_QUEUED = 'liverec:clip-queued';

export function ClipTools({ path, now, spanS, onSeek, live = false, markAt }: ClipToolsProps) {
  const [notice, say] = useNotice();
  const [markers, setMarkers] = useState<Marker[]>([]);
  const [start, setStart] = useState<number | null>(null);
  const [end, setEnd] = useState<number | null>(null);
  const [windowS, setWindowS] = useState(30);
  const [windows, setWindows] = useState<Window[]>([]);
  const [tick, setTick] = useState(0);
  const density = useDensity(path, 10, tick);
  const q = `path=${encodeURIComponent(path)}`;

  useEffect(() => {
    api<{ markers: Marker[] }>('GET', `api/file/markers?${q}`).then((r) => setMarkers(r.markers), () => setMarkers([]));
  }, [path]);
  useEffect(() => {
    if (!live) return undefined;
    const timer = setInterval(() => setTick((n) => n + 1), 10_000);
    return () => clearInterval(timer);
  }, [live]);
  useEffect(() => {
    if (live) return;
    api<{ suggestions: Window[] }>('GET', `api/clips/suggestions?${q}&windowS=${windowS}&count=5`).then((r) => setWindows(r.suggestions), () => setWindows([]));
  }, [path, windowS, live]);

  const mark = (): void => {
    (markAt ? markAt() : api<Marker>('POST', 'api/file/markers', { path, atMs: Math.round(now * 1000) })).then((m) => {
      setMarkers((list) => [...list, m].sort((a, b) => a.atMs - b.atMs));
      say(t('clips.marked', { time: fmt(m.atMs) }));
    }, (e: Error) => say(e.message, true));
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const target = e.target as HTMLElement | null;
      if (e.key !== 'm' && e.key !== 'M') return;
      if (e.ctrlKey || e.metaKey || e.altKey || (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      e.preventDefault();
      mark();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
  const remove = (m: Marker): void => {
    api<{ markers: Marker[] }>('DELETE', `api/file/markers/${encodeURIComponent(m.id)}?${q}`).then((r) => setMarkers(r.markers), (e: Error) => say(e.message, true));
  };
  const clip = (startMs: number, endMs: number): void => {
    api<{ id: string }>('POST', 'api/clips', { path, startMs, endMs }).then(() => {
      say(t('clips.queued', { from: fmt(startMs), to: fmt(endMs) }));
      // The Files page's clip list reloads (and follows the job while it runs).
      window.dispatchEvent(new Event(CLIP_QUEUED));
    }, (e: Error) => say(e.message, true));
  };

  return (
    <div class="clip-tools" data-clip-tools={path}>
      <HeatBar density={density} spanS={spanS} now={now} markers={markers} windows={windows} onSeek={onSeek} />
      <div class="actions">
        <button data-action="mark" onClick={mark} title={t('clips.markHelp')}>{t('clips.mark')}</button>
        {!live && <>
          <button data-action="clip-start" onClick={() => setStart(Math.round(now * 1000))}>{t('clips.setStart')}</button>
          <button data-action="clip-end" onClick={() => setEnd(Math.round(now * 1000))}>{t('clips.setEnd')}</button>
          <span class="hint">{t('clips.range', { from: start === null ? '—' : fmt(start), to: end === null ? '—' : fmt(end) })}</span>
          <button data-action="clip" disabled={start === null || end === null || end <= start} onClick={() => clip(start!, end!)}>{t('clips.make')}</button>
        </>}
      </div>
      <NoticeLine notice={notice} />
      {markers.length > 0 && <ul class="markers">
        {markers.map((m) => (
          <li key={m.id} data-marker={m.atMs}>
            <a href="#" onClick={(e) => (e.preventDefault(), onSeek(m.atMs / 1000))}>{fmt(m.atMs)}</a> {m.label}
            {' '}<button class="link" title={t('clips.removeMarker')} onClick={() => remove(m)}>×</button>
          </li>
        ))}
      </ul>}
      {!live && <details class="suggestions" open={windows.length > 0}>
        <summary>{t('clips.suggestions')}</summary>
        <label>{t('clips.window')} <input type="number" min={5} max={600} value={windowS} onChange={(e) => setWindowS(Math.max(5, Math.min(600, Number(e.currentTarget.value) || 30)))} /></label>
        {windows.length === 0 ? <p class="empty">{t('clips.noSuggestions')}</p> : <ol>
          {windows.map((w) => (
            <li key={w.startMs} data-suggestion={w.startMs}>
              <a href="#" onClick={(e) => (e.preventDefault(), onSeek(w.startMs / 1000))}>{fmt(w.startMs)}–{fmt(w.endMs)}</a> {t('clips.count', { n: w.count })}
              {' '}<button data-action="accept" onClick={() => clip(w.startMs, w.endMs)}>{t('clips.accept')}</button>
            </li>
          ))}
        </ol>}
      </details>}
    </div>
  );
}
