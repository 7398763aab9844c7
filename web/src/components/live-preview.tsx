// The room page's live preview: the recording's own bytes (GET /api/room/{id}/live.flv or .ts through mpegts.js, .mp4
// through Media Source Extensions), the room's comments arriving over the event stream drawn over it, and the heat
// and markers of the file being written.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, apiUrl } from '../api';
import { t } from '../i18n';
import { ClipTools } from './clip-tools';
import { playFmp4Live } from './fmp4-live';
import { visibleAt, type Comment } from './danmaku';
import type { Marker } from './heat-bar';

export interface LivePreviewProps {
  roomId: number;
  /** The file being written, relative to the work directory (heat and markers); null when unknown. */
  path: string | null;
  /** Seconds of the open file written so far. */
  fileSeconds: number;
}

const color = (rgb: number): string => `#${(rgb & 0xffffff).toString(16).padStart(6, '0')}`;

export function LivePreview({ roomId, path, fileSeconds }: LivePreviewProps) {
  const [watching, setWatching] = useState(false);
  return (
    <div class="player live-preview" data-live-preview={roomId}>
      <div class="player-head">
        <b>{t('live.title')}</b>
        <button data-action="watch-live" onClick={() => setWatching(!watching)}>{t(watching ? 'live.stop' : 'live.watch')}</button>
      </div>
      {watching && <LiveScreen roomId={roomId} path={path} fileSeconds={fileSeconds} />}
    </div>
  );
}

function LiveScreen({ roomId, path, fileSeconds }: LivePreviewProps) {
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [comments, setComments] = useState<Comment[]>([]);
  const [now, setNow] = useState(0);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const el = video.current;
    if (!el) return undefined;
    let destroy = (): void => undefined;
    let cancelled = false;
    let retry: ReturnType<typeof setTimeout> | null = null;
    // A split or the end of a file ends the stream: a new one starts at the next file's head.
    const again = (): void => {
      if (!cancelled && !retry) retry = setTimeout(() => setGeneration((g) => g + 1), 1000);
    };
    // An HLS fMP4 recording is previewed as fMP4 (live.mp4) through Media Source Extensions.
    if (/\.mp4$/i.test(path ?? '')) {
      if (typeof MediaSource === 'undefined') setError(t('player.noMse'));
      else {
        destroy = playFmp4Live(el, apiUrl(`api/room/${roomId}/live.mp4`), {
          error: (reason) => {
            setError(t('live.unavailable', { reason }));
            again();
          },
          ended: () => {
            setError(t('live.ended'));
            again();
          },
        });
      }
    } else import('mpegts.js').then(({ default: mpegts }) => {
      if (cancelled) return;
      if (!mpegts.getFeatureList().mseLivePlayback) return setError(t('player.noMse'));
      mpegts.LoggingControl.enableVerbose = false;
      mpegts.LoggingControl.enableDebug = false;
      mpegts.LoggingControl.enableInfo = false;
      // An HLS MPEG-TS recording is previewed as TS (live.ts); FLV as FLV.
      const ts = /\.ts$/i.test(path ?? '');
      const player = mpegts.createPlayer({ type: ts ? 'mpegts' : 'flv', url: apiUrl(`api/room/${roomId}/live.${ts ? 'ts' : 'flv'}`), isLive: true },
        { enableWorker: false, lazyLoad: false, liveBufferLatencyChasing: true });
      player.on(mpegts.Events.ERROR, (type: string, detail: string) => {
        setError(t('live.unavailable', { reason: `${type}: ${detail}` }));
        again();
      });
      player.on(mpegts.Events.LOADING_COMPLETE, () => {
        setError(t('live.ended'));
        again();
      });
      player.attachMediaElement(el);
      player.load();
      void Promise.resolve(player.play()).catch(() => undefined);
      destroy = () => player.destroy();
    }, (e: Error) => setError(e.message));
    return () => {
      cancelled = true;
      if (retry) clearTimeout(retry);
      destroy();
    };
  }, [roomId, generation, path]);

  useEffect(() => {
    // Comments come with the room's event stream while its preview is watched; each shows from when it arrived.
    const source = new EventSource(apiUrl(`api/events?room=${roomId}`));
    source.addEventListener('danmaku', (e) => {
      const d = JSON.parse((e as MessageEvent).data) as { text: string; color: number };
      const at = video.current?.currentTime ?? 0;
      setComments((list) => [...list.slice(-500), { t: at, text: d.text, color: color(d.color) }]);
    });
    return () => source.close();
  }, [roomId]);

  const behindMs = (): number => {
    const el = video.current;
    if (!el || el.buffered.length === 0) return 0;
    return Math.max(0, Math.round((el.buffered.end(el.buffered.length - 1) - el.currentTime) * 1000));
  };
  const markAt = (): Promise<Marker> =>
    api<{ path: string; marker: Marker }>('POST', `api/room/${roomId}/live-marker`, { behindMs: behindMs() }).then((r) => r.marker);

  return (
    <>
      <div class="screen">
        <video ref={video} controls muted playsInline data-live-video onTimeUpdate={(e) => setNow(e.currentTarget.currentTime)} />
        <div class="danmaku" aria-hidden="true" data-live-danmaku={comments.length}>
          {visibleAt(comments, now).map((c, i) => (
            <span key={`${c.t}-${i}`} style={{ top: `${(i % 12) * 8}%`, color: c.color, animationDelay: `${-(now - c.t)}s` }}>{c.text}</span>
          ))}
        </div>
      </div>
      {comments.length > 0 && <p class="hint">{t('live.danmaku', { n: comments.length })}</p>}
      {error && <p class="hint">{error}</p>}
      {path && <ClipTools path={path} now={fileSeconds} spanS={fileSeconds} onSeek={() => undefined} live markAt={markAt} />}
    </>
  );
}
