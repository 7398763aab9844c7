// Plays an endless fragmented MP4 (GET /api/room/{id}/live.mp4) through Media Source Extensions: the codecs come
// from the stream's own moov; the picture follows the live edge and old media is let go, so a long watch stays small.
import { t } from '../i18n';
import { codecsOf, initEnd } from './mp4-codecs';

export interface LiveHandlers {
  error(message: string): void;
  /** The stream ended (the file was split or closed): the caller reconnects. */
  ended(): void;
}

/** An init section larger than this is no init section (moov of a live stream is a few KB). */
const MAX_INIT = 4 * 1024 * 1024;
/** Seconds behind the live edge before the player jumps forward (a tab in the background, a slow decoder). */
const MAX_BEHIND_S = 4;
/** Seconds of played media kept in the buffer. */
const KEEP_S = 30;

const concat = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
};

/** Starts playing `url` into `el`; the returned function stops it and lets go of everything. */
export function playFmp4Live(el: HTMLVideoElement, url: string, on: LiveHandlers): () => void {
  const ac = new AbortController();
  let objectUrl = '';
  let buffer: SourceBuffer | null = null;
  const queue: Uint8Array[] = [];

  const follow = (): void => {
    const b = el.buffered;
    if (b.length === 0) return;
    const start = b.start(0);
    const end = b.end(b.length - 1);
    // Decode times are the file's: the first media may begin minutes in.
    if (el.currentTime < start || end - el.currentTime > MAX_BEHIND_S) el.currentTime = Math.max(start, end - 1);
    if (buffer && !buffer.updating && el.currentTime - start > KEEP_S + 10) buffer.remove(0, el.currentTime - KEEP_S);
  };

  const pump = (): void => {
    if (!buffer || buffer.updating || queue.length === 0 || ac.signal.aborted) return;
    const bytes = queue.length === 1 ? queue[0]! : queue.reduce(concat);
    queue.length = 0;
    try {
      buffer.appendBuffer(bytes as BufferSource);
    } catch (err) {
      on.error((err as Error).message);
      ac.abort();
    }
  };

  const open = (type: string): Promise<SourceBuffer> => new Promise((resolve, reject) => {
    const source = new MediaSource();
    objectUrl = URL.createObjectURL(source);
    source.addEventListener('sourceopen', () => {
      try {
        const sb = source.addSourceBuffer(type);
        sb.mode = 'segments';
        sb.addEventListener('updateend', () => {
          follow();
          pump();
        });
        sb.addEventListener('error', () => on.error(t('live.decodeError')));
        resolve(sb);
      } catch (err) {
        reject(err as Error);
      }
    }, { once: true });
    el.src = objectUrl;
  });

  void (async () => {
    const res = await fetch(url, { signal: ac.signal, cache: 'no-store' });
    if (!res.ok || !res.body) {
      const body = (await res.json().catch(() => null)) as { message?: string } | null;
      return on.error(body?.message ?? `HTTP ${res.status}`);
    }
    const reader = res.body.getReader();
    let head: Uint8Array | null = new Uint8Array(0);
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (head) {
        head = concat(head, value);
        const end = initEnd(head);
        if (end < 0) {
          if (head.length > MAX_INIT) return on.error(t('live.badInit'));
          continue;
        }
        const codecs = codecsOf(head.subarray(0, end));
        const type = `video/mp4; codecs="${codecs}"`;
        if (!codecs || !MediaSource.isTypeSupported(type)) return on.error(t('live.unsupported', { type }));
        buffer = await open(type);
        queue.push(head);
        head = null;
        void el.play().catch(() => undefined);
      } else queue.push(value);
      pump();
    }
    if (!ac.signal.aborted) on.ended();
  })().catch((err: Error) => {
    if (!ac.signal.aborted) on.error(err.message);
  });

  return () => {
    ac.abort();
    el.removeAttribute('src');
    el.load();
    if (objectUrl) URL.revokeObjectURL(objectUrl);
  };
}
