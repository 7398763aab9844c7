// Files: the work directory browser (GET /api/file), downloads, and the player with the sibling danmaku XML.
import { useEffect, useState } from 'preact/hooks';
import { api, serverRoot } from '../api';
import { Player } from '../components/player';
import { bytes, dateTime } from '../format';
import { t } from '../i18n';
import { FileGaps, sidecarOf } from '../components/file-gaps';
import { ClipList, MarkerBadge, markersOf } from '../components/clip-list';
import { go } from '../router';
import { SourceBadge } from '../components/source-badge';
import { sourceOfEvent } from '../source-labels';
import { useStore } from '../store';
import type { RecordingSource } from '../types';

interface Entry { isFolder: boolean; name: string; lastModified: string; size?: number; url?: string }
interface Listing { exist: boolean; path: string; files: Entry[] }

const PLAYABLE = /\.(flv|mp4|m4v|webm|mkv)$/i;
const fileUrl = (url: string): string => new URL(url.split('/').map(encodeURIComponent).join('/').replace(/^\//, ''), serverRoot).toString();

export function FilesPage({ dir }: { dir: string }) {
  const path = `/${dir.replace(/^\/+|\/+$/g, '')}${dir.replace(/^\/+|\/+$/g, '') ? '/' : ''}`;
  const [listing, setListing] = useState<Listing | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [playing, setPlaying] = useState<Entry | null>(null);
  useEffect(() => {
    setPlaying(null);
    api<Listing>('GET', `api/file?path=${encodeURIComponent(path)}`).then(setListing, (e: Error) => setError(e.message));
  }, [path]);
  const files = [...(listing?.files ?? [])].sort((a, b) => Number(b.isFolder) - Number(a.isFolder) || a.name.localeCompare(b.name));
  const names = new Set(files.map((f) => f.name));
  const sibling = (f: Entry): string | null => {
    const xml = f.name.replace(/\.[^.]+$/, '.xml');
    const entry = files.find((x) => x.name === xml);
    return entry?.url && names.has(xml) ? fileUrl(entry.url) : null;
  };
  const up = path === '/' ? null : path.replace(/[^/]+\/$/, '');
  // Files recorded while this page's event stream ran (or still in the server's replay buffer) know their source.
  const sources = new Map<string, RecordingSource>();
  for (const e of useStore().events) {
    const s = sourceOfEvent(e);
    if (s && e.EventData.RelativePath) sources.set(`/${e.EventData.RelativePath}`, s);
  }
  return (
    <section>
      <h2>{t('files.title')} <small>{path}</small></h2>
      {error && <p class="error">{error}</p>}
      {listing && !listing.exist && <p class="empty">{t('files.off')}</p>}
      {playing?.url && <Player url={fileUrl(playing.url)} name={playing.name} danmakuUrl={sibling(playing)} path={`${path}${playing.name}`.replace(/^\//, '')} onClose={() => setPlaying(null)} />}
      <div class="table-wrap"><table class="list files">
        <thead><tr><th>{t('col.name')}</th><th>{t('source.column')}</th><th>{t('col.size')}</th><th>{t('col.modified')}</th><th /></tr></thead>
        <tbody>
          {up !== null && <tr><td><a href={`#/files${up}`}>..</a></td><td /><td /><td /><td /></tr>}
          {files.map((f) => (
            <tr key={f.name} data-file={f.name}>
              <td>
                {f.isFolder ? <a href={`#/files${path}${encodeURIComponent(f.name)}/`} onClick={(e) => (e.preventDefault(), go(`#/files${path}${f.name}/`))}>{f.name}/</a> : f.name}
                {!f.isFolder && sidecarOf(f.name, names) && <> <FileGaps url={fileUrl(files.find((x) => x.name === sidecarOf(f.name, names))!.url ?? '')} /></>}
                {!f.isFolder && PLAYABLE.test(f.name) && markersOf(f.name, names) && <> <MarkerBadge path={`${path}${f.name}`.replace(/^\//, '')} /></>}
              </td>
              <td>{!f.isFolder && sources.has(`${path}${f.name}`) && <SourceBadge source={sources.get(`${path}${f.name}`)!} />}</td>
              <td class="nowrap">{f.isFolder ? '' : bytes(f.size ?? 0)}</td>
              <td class="nowrap">{dateTime(f.lastModified)}</td>
              <td>
                {!f.isFolder && f.url && PLAYABLE.test(f.name) && <button data-action="play" onClick={() => setPlaying(f)}>{t('files.play')}</button>}
                {!f.isFolder && f.url && <a class="button" href={fileUrl(f.url)} download>{t('files.download')}</a>}
              </td>
            </tr>
          ))}
        </tbody>
      </table></div>
      <ClipList folder={path} refresh={listing} />
    </section>
  );
}
