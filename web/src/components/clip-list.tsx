// The Files page's clips (GET /api/clips): state, the clip and its danmaku files; and the markers badge of a recording.
import { useEffect, useState } from 'preact/hooks';
import { api, serverRoot } from '../api';
import { dateTime } from '../format';
import { has, t } from '../i18n';
import { clock } from './heat-bar';
import { CLIP_QUEUED } from './clip-tools';

interface Clip {
  id: string; path: string; startMs: number; endMs: number; format: string; state: string; error: string | null;
  output: string | null; danmakuXml: string | null; danmakuAss: string | null; updatedAt: string;
}

const fileUrl = (rel: string): string => new URL(`file/${rel.split('/').map(encodeURIComponent).join('/')}`, serverRoot).toString();
const ACTIVE = new Set(['pending', 'running', 'retrying']);

/** `x.flv` → `x.markers.json` when the listing holds it. */
export const markersOf = (name: string, names: Set<string>): string | null => {
  const file = `${name.replace(/\.[^.]+$/, '')}.markers.json`;
  return names.has(file) ? file : null;
};

export function MarkerBadge({ path }: { path: string }) {
  const [n, setN] = useState<number | null>(null);
  useEffect(() => {
    api<{ markers: unknown[] }>('GET', `api/file/markers?path=${encodeURIComponent(path)}`).then((r) => setN(r.markers.length), () => setN(null));
  }, [path]);
  return n ? <span class="badge" data-markers={n}>{t('clips.markers', { n })}</span> : null;
}

/** Clips whose source lies in `folder` (`/sub/`), newest first; refreshed while any runs. */
export function ClipList({ folder, refresh }: { folder: string; refresh: unknown }) {
  const [clips, setClips] = useState<Clip[]>([]);
  const load = () => api<Clip[]>('GET', 'api/clips').then(setClips, () => setClips([]));
  useEffect(() => void load(), [refresh]);
  useEffect(() => {
    const reload = (): void => void load();
    window.addEventListener(CLIP_QUEUED, reload);
    return () => window.removeEventListener(CLIP_QUEUED, reload);
  }, []);
  const active = clips.some((c) => ACTIVE.has(c.state));
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(load, 1500);
    return () => clearInterval(timer);
  }, [active]);
  const here = clips.filter((c) => `/${c.path}`.startsWith(folder) && !`/${c.path}`.slice(folder.length).includes('/'));
  if (here.length === 0) return null;
  return (
    <>
      <h3>{t('clips.title')}</h3>
      <div class="table-wrap"><table class="list clips">
        <thead><tr><th>{t('col.file')}</th><th>{t('clips.span')}</th><th>{t('col.state')}</th><th>{t('col.result')}</th><th>{t('col.updated')}</th></tr></thead>
        <tbody>
          {here.map((c) => (
            <tr key={c.id} data-clip={c.id} data-state={c.state}>
              <td class="url">{c.path}</td>
              <td class="nowrap">{clock(c.startMs)}–{clock(c.endMs)}</td>
              <td class="nowrap">{has(`jobstate.${c.state}`) ? t(`jobstate.${c.state}`) : c.state}</td>
              <td>
                {c.error}
                {c.output && <a class="button" href={fileUrl(c.output)} download data-clip-output>{c.format.toUpperCase()}</a>}
                {c.danmakuXml && <a class="button" href={fileUrl(c.danmakuXml)} download>XML</a>}
                {c.danmakuAss && <a class="button" href={fileUrl(c.danmakuAss)} download>ASS</a>}
              </td>
              <td class="nowrap">{dateTime(c.updatedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table></div>
    </>
  );
}
