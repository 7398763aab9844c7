// Real-content clips for the simulator: 1080p25 H.264 with full-frame entropy at a few bitrates, generated once.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { generatedMedia, mediaCacheDir, mediaName, packagedMediaDir, type MediaSpec } from '../media/generated-media.js';
import { type Clip, loadClipFile } from './clips.js';

/** Video bitrates (kbps) of the generated 1080p clips; a room gets the one nearest its bitrate. */
export const REAL_CLIP_KBPS = [1500, 3000, 6000, 10000] as const;

/**
 * 7.68 s = 192 frames at 25 fps = 360 AAC frames at 48 kHz, so video and audio loop without drift;
 * 4 GOPs of 1.92 s. Every frame also carries the simulator's timestamp SEI, so loops never repeat bytes.
 */
export function realClipSpec(videoKbps: number, height = 1080): MediaSpec {
  const width = Math.round((height * 16) / 9 / 2) * 2;
  return { width, height, fps: 25, videoKbps, seconds: 7.68, gop: 48 };
}

/** The ladder entry nearest `kbps` (by ratio); the clip's total rate also has 128 kbps of audio. */
export function ladderKbps(kbps: number): number {
  return REAL_CLIP_KBPS.reduce((best, k) => (Math.abs(Math.log(k / kbps)) < Math.abs(Math.log(best / kbps)) ? k : best));
}

/** The 1080p clips nearest each of `bitratesKbps`, generated with ffmpeg on first use (seconds each) and cached. */
export async function realClips(bitratesKbps: readonly number[]): Promise<Clip[]> {
  const ladder = [...new Set(bitratesKbps.map(ladderKbps))];
  const paths = await Promise.all(ladder.map((k) => generatedMedia(realClipSpec(k))));
  return paths.map((p) => loadClipFile(p));
}

/** Whether realClips(bitratesKbps) can start at once: every clip is packaged or cached, so none has to be encoded. */
export function realClipsReady(bitratesKbps: readonly number[]): boolean {
  return bitratesKbps.map((k) => mediaName(realClipSpec(ladderKbps(k))))
    .every((name) => existsSync(join(packagedMediaDir(), name)) || existsSync(join(mediaCacheDir(), name)));
}
