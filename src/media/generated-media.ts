// Real H.264/AAC FLV made with ffmpeg on first use and cached outside the repo, keyed by its parameters.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../paths.js';
import { ffmpegBin } from './ffmpeg-bin.js';

export interface MediaSpec {
  width: number;
  height: number;
  fps: number;
  /** Video bitrate target (x264 ABR); audio adds 128 kbps. */
  videoKbps: number;
  seconds: number;
  /** Keyframe interval in frames (no scene-cut keyframes). */
  gop: number;
  /** x264 preset (default superfast); ultrafast encodes long inputs several times faster. */
  preset?: string;
}

/** Bump when the encoding changes, so old cache entries are not reused. */
const VERSION = 1;

export function mediaCacheDir(): string {
  return process.env.LIVEREC_MEDIA_CACHE ?? join(tmpdir(), 'liverec-media-cache');
}

/**
 * Clips encoded when the release package was made (scripts/pack-media.mjs): an installed package has no ffmpeg,
 * so the demo and the simulator read these instead of encoding.
 */
export function packagedMediaDir(): string {
  return join(packageRoot, 'dist', 'media');
}

export function mediaName(s: MediaSpec): string {
  return `v${VERSION}-${s.width}x${s.height}p${s.fps}-${s.videoKbps}k-${s.seconds}s-g${s.gop}${s.preset ? `-${s.preset}` : ''}.flv`;
}

/**
 * testsrc2 (moving shapes, a counter) under temporal noise: every frame differs, so P-frames carry real
 * entropy and the encoder works at the bitrate as a camera stream does, with no filler. A sine tone as AAC.
 */
export function ffmpegArgs(s: MediaSpec, out: string): string[] {
  return [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc2=size=${s.width}x${s.height}:rate=${s.fps},noise=alls=12:allf=t`,
    '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000',
    '-t', String(s.seconds),
    '-c:v', 'libx264', '-preset', s.preset ?? 'superfast', '-profile:v', 'high', '-pix_fmt', 'yuv420p',
    '-g', String(s.gop), '-keyint_min', String(s.gop), '-sc_threshold', '0', '-bf', '0',
    '-b:v', `${s.videoKbps}k`, '-maxrate', `${Math.round(s.videoKbps * 1.1)}k`, '-bufsize', `${s.videoKbps}k`,
    '-c:a', 'aac', '-b:a', '128k', '-ac', '2', '-ar', '48000',
    '-f', 'flv', out,
  ];
}

const pending = new Map<string, Promise<string>>();

/** Path of the packaged or cached file for `spec`, encoding it first if needed (concurrent callers share one encode). */
export function generatedMedia(spec: MediaSpec): Promise<string> {
  const packaged = join(packagedMediaDir(), mediaName(spec));
  if (existsSync(packaged)) return Promise.resolve(packaged);
  const path = join(mediaCacheDir(), mediaName(spec));
  if (existsSync(path)) return Promise.resolve(path);
  let p = pending.get(path);
  if (!p) {
    p = new Promise<string>((resolve, reject) => {
      mkdirSync(mediaCacheDir(), { recursive: true });
      // A private temp name, renamed into place: parallel processes never read a half-written file.
      const tmp = `${path}.${process.pid}.${Date.now()}.tmp.flv`;
      execFile(ffmpegBin(), ffmpegArgs(spec, tmp), { maxBuffer: 1 << 20 }, (err, _out, stderr) => {
        if (err) {
          rmSync(tmp, { force: true });
          reject(new Error(`ffmpeg could not generate ${mediaName(spec)}: ${stderr || err.message}`));
        } else {
          renameSync(tmp, path);
          resolve(path);
        }
      });
    }).finally(() => pending.delete(path));
    pending.set(path, p);
  }
  return p;
}
