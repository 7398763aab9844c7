// HLS requests over the stream reader (manual redirects, connect deadline, no-data watchdog): playlists as text, segments streamed.
import type { ClientOptions } from '../bilibili/client-options.js';
import { BiliErrorCode, BilibiliError } from '../bilibili/errors.js';
import { openStream } from '../bilibili/stream-download.js';

export type HlsHttpOptions = Partial<Pick<ClientOptions, 'streamConnectTimeoutMs' | 'watchdogTimeoutMs' | 'userAgent' | 'maxRedirects'>> & {
  signal?: AbortSignal;
  tlsCa?: string | Buffer;
};

const MAX_PLAYLIST_BYTES = 1024 * 1024;

/**
 * GETs `url` and hands each body chunk to `onChunk` (a view valid during the call only). Resolves with the final
 * URL (after redirects) once the whole body arrived; rejects with the reader's STREAM_* coded errors.
 */
export async function fetchStreamed(url: string, options: HlsHttpOptions, onChunk: (chunk: Uint8Array) => void): Promise<string> {
  // Playlists and segments are short requests to the same few hosts: they share kept-alive sockets.
  const download = await openStream(url, { ...options, keepAlive: true });
  let failure: unknown = null;
  await download.consume((chunk) => {
    if (failure) return;
    try {
      onChunk(chunk);
    } catch (err) {
      failure = err;
      download.stop();
    }
  });
  if (failure) throw failure;
  if (options.signal?.aborted) throw new BilibiliError(BiliErrorCode.StreamNetwork, 'Stream request cancelled');
  return download.url;
}

/** A playlist: the body as UTF-8 text (at most 1 MiB) and the URL it came from (base for relative URIs). */
export async function fetchText(url: string, options: HlsHttpOptions): Promise<{ text: string; url: string }> {
  const parts: Buffer[] = [];
  let size = 0;
  const final = await fetchStreamed(url, options, (chunk) => {
    size += chunk.length;
    if (size > MAX_PLAYLIST_BYTES) throw new BilibiliError(BiliErrorCode.StreamNetwork, `Playlist from ${new URL(url).origin} exceeds ${MAX_PLAYLIST_BYTES} bytes`);
    parts.push(Buffer.from(chunk));
  });
  return { text: Buffer.concat(parts).toString('utf8'), url: final };
}
