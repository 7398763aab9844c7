// HLS test helpers: decode checks for .mp4 (ffprobe) and .ts (ffmpeg: this ffprobe build crashes on MPEG-TS), log ring reads.
import { execFile } from 'node:child_process';
import { logRing } from '../../src/log/logger.js';
import { ffmpegBin, ffprobeBin } from '../support/media-tools.js';

export interface Decoded {
  codecs: string[];
  /** Seconds of media decoded (video frames × frame duration for video). */
  duration: number;
  videoFrames: number;
  resolution: string;
  /** Decoder / demuxer messages at level error (empty = clean). */
  errors: string;
}

function run(bin: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(bin, args, { maxBuffer: 32 << 20 }, (err, stdout, stderr) => {
      if (err && !stdout && !stderr) reject(err);
      else resolve({ stdout, stderr });
    });
  });
}

/** ffprobe with -count_frames (every frame decoded) for MP4; ffmpeg decoding to null for TS. */
export async function decode(path: string): Promise<Decoded> {
  if (path.endsWith('.mp4')) {
    const { stdout, stderr } = await run(ffprobeBin(), ['-v', 'error', '-count_frames', '-show_entries',
      'stream=codec_name,codec_type,width,height,nb_read_frames,r_frame_rate:format=duration', '-of', 'json', path]);
    const info = JSON.parse(stdout) as { streams?: Record<string, string | number>[]; format?: { duration?: string } };
    const video = info.streams?.find((s) => s.codec_type === 'video');
    return {
      codecs: (info.streams ?? []).map((s) => String(s.codec_name)).sort(),
      duration: Number(info.format?.duration ?? Number.NaN),
      videoFrames: Number(video?.nb_read_frames ?? 0),
      resolution: video ? `${video.width}x${video.height}` : '',
      errors: stderr.trim(),
    };
  }
  const errors = (await run(ffmpegBin(), ['-v', 'error', '-i', path, '-f', 'null', '-'])).stderr.trim();
  const { stderr } = await run(ffmpegBin(), ['-hide_banner', '-i', path, '-map', '0:v', '-c', 'copy', '-f', 'null', '-']);
  const codecs = [...stderr.matchAll(/Stream #0:\d+\[[^\]]*\][^:]*: (Video|Audio): (\w+)/g)].map((m) => m[2]!).sort();
  const frames = Number([...stderr.matchAll(/frame=\s*(\d+)/g)].at(-1)?.[1] ?? 0);
  const fps = Number(/(\d+(?:\.\d+)?) fps/.exec(stderr)?.[1] ?? 25);
  const res = /Video: [^\n]*?, (\d+x\d+)/.exec(stderr)?.[1] ?? '';
  return { codecs, duration: frames / fps, videoFrames: frames, resolution: res, errors };
}


/** Collects the main thread's log lines (room workers' logs included) from now on. */
export function collectLogs(): { lines: Record<string, unknown>[]; match(part: string, roomId?: number): Record<string, unknown>[]; stop(): void } {
  const lines: Record<string, unknown>[] = [];
  const stop = logRing.onEntry((_id, log) => void lines.push(log));
  return {
    lines,
    match: (part, roomId) => lines.filter((l) => String(l['@mt']).includes(part) && (roomId === undefined || l.RoomId === roomId)),
    stop,
  };
}
