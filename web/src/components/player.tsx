// The in-browser player: FLV through mpegts.js (loaded on demand, bundled locally), other files natively; danmaku overlay.
import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../i18n';
import { parseDanmakuXml, visibleAt, type Comment } from './danmaku';
import { ClipTools } from './clip-tools';

/** `path`: the recording relative to the work directory (heat, markers, clips under the picture); null for none. */
export interface PlayerProps { url: string; name: string; danmakuUrl: string | null; path?: string | null; onClose(): void }

export function Player({ url, name, danmakuUrl, path = null, onClose }: PlayerProps) {
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [comments, setComments] = useState<Comment[]>([]);
  const [now, setNow] = useState(0);
  const [span, setSpan] = useState(0);

  useEffect(() => {
    const el = video.current;
    if (!el) return;
    let destroy = (): void => undefined;
    let cancelled = false;
    if (/\.flv$/i.test(name)) {
      import('mpegts.js').then(({ default: mpegts }) => {
        if (cancelled) return;
        if (!mpegts.getFeatureList().mseLivePlayback && !mpegts.isSupported()) return setError(t('player.noMse'));
        mpegts.LoggingControl.enableVerbose = false;
        mpegts.LoggingControl.enableDebug = false;
        mpegts.LoggingControl.enableInfo = false;
        const player = mpegts.createPlayer({ type: 'flv', url, isLive: false }, { enableWorker: false, lazyLoad: false });
        player.on(mpegts.Events.ERROR, (type: string, detail: string) => setError(`${type}: ${detail}`));
        player.attachMediaElement(el);
        player.load();
        void Promise.resolve(player.play()).catch(() => undefined);
        destroy = () => player.destroy();
      }, (e: Error) => setError(e.message));
    } else {
      el.src = url;
      void el.play().catch(() => undefined);
    }
    return () => {
      cancelled = true;
      destroy();
    };
  }, [url]);

  useEffect(() => {
    setComments([]);
    if (!danmakuUrl) return;
    fetch(danmakuUrl, { credentials: 'same-origin' }).then((r) => (r.ok ? r.text() : '')).then((xml) => setComments(parseDanmakuXml(xml)), () => undefined);
  }, [danmakuUrl]);

  return (
    <div class="player">
      <div class="player-head"><b>{name}</b><button onClick={onClose}>{t('player.close')}</button></div>
      <div class="screen">
        <video ref={video} controls muted playsInline onTimeUpdate={(e) => setNow(e.currentTarget.currentTime)}
          onDurationChange={(e) => setSpan(Number.isFinite(e.currentTarget.duration) ? e.currentTarget.duration : 0)} />
        <div class="danmaku" aria-hidden="true">
          {visibleAt(comments, now).map((c, i) => (
            <span key={`${c.t}-${i}`} style={{ top: `${(i % 12) * 8}%`, color: c.color, animationDelay: `${-(now - c.t)}s` }}>{c.text}</span>
          ))}
        </div>
      </div>
      {path && <ClipTools path={path} now={now} spanS={span} onSeek={(sec) => { if (video.current) video.current.currentTime = sec; }} />}
      {comments.length > 0 && <p class="hint">{t('player.danmaku', { n: comments.length })}</p>}
      {error && <p class="error">{error}</p>}
    </div>
  );
}
