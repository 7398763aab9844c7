// HLS versions of the simulator's content clips (generated 1080p, or --clip), cut once with ffmpeg and cached with the media.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { mediaCacheDir } from '../../media/generated-media.js';
import type { Clip } from '../clips.js';
import type { SimFormat } from '../room.js';
import { type HlsFormat, loadFmp4, loadTs } from './hls-clips.js';
import { segmentFlv } from './segment-flv.js';

/** Keyed by the FLV's name, size and mtime, so a changed --clip file is cut again and no file beside it is written. */
function cachePath(clip: Clip, format: HlsFormat): string {
  const st = statSync(clip.path);
  const key = `${basename(clip.path, '.flv')}-${st.size}-${Math.floor(st.mtimeMs)}`;
  return join(mediaCacheDir(), `hls-${key}.${format === 'fmp4' ? 'fmp4' : 'mpegts'}`);
}

/**
 * Gives each content clip its HLS form for every HLS format in `formats`, so HLS rooms serve the same real video
 * as FLV rooms (not the committed 360p clips). One loop is the FLV clip's period, cut at every keyframe.
 */
export async function attachHls(clips: readonly Clip[], formats: readonly SimFormat[]): Promise<void> {
  const wanted = (['fmp4', 'ts'] as const).filter((f) => formats.includes(f));
  for (const clip of clips) {
    for (const format of wanted) {
      const path = cachePath(clip, format);
      const seconds = clip.periodMs / 1000;
      if (!existsSync(path)) {
        mkdirSync(mediaCacheDir(), { recursive: true });
        await segmentFlv(clip.path, format === 'fmp4' ? 'fmp4' : 'mpegts', seconds, path);
      }
      (clip.hls ??= {})[format] = format === 'fmp4' ? loadFmp4(path, seconds) : loadTs(path, seconds);
    }
  }
}
