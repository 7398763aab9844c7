// ffprobe/ffmpeg from the npm devDependencies, usable by every test (the exec bit may be missing for non-owners).
import { execFile } from 'node:child_process';
import { accessSync, chmodSync, constants, copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffprobeInstaller from '@ffprobe-installer/ffprobe';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';

const cache = new Map<string, string>();

function executable(p: string, name: string): string {
  const hit = cache.get(p);
  if (hit) return hit;
  let usable = p;
  try {
    accessSync(p, constants.X_OK);
  } catch {
    try {
      chmodSync(p, 0o755);
      accessSync(p, constants.X_OK);
    } catch {
      usable = join(mkdtempSync(join(tmpdir(), `liverec-${name}-`)), name);
      copyFileSync(p, usable);
      chmodSync(usable, 0o755);
    }
  }
  cache.set(p, usable);
  return usable;
}

export const ffprobeBin = (): string => executable(ffprobeInstaller.path, 'ffprobe');
export const ffmpegBin = (): string => executable(ffmpegInstaller.path, 'ffmpeg');

export interface ProbeResult {
  /** ffprobe's stderr at -v error while decoding headers and counting packets (empty = clean). */
  errors: string;
  codecs: string[];
  duration: number;
  packets: number[];
  /** "640x360" of the video stream, or "" without one. */
  resolution: string;
}

interface ProbeStream { codec_name: string; codec_type: string; width?: number; height?: number; nb_read_packets?: string; nb_read_frames?: string }

/** ffprobe over the whole file, counting packets (a full read) or decoded frames (a full decode). */
export function probeStreams(path: string, count: 'packets' | 'frames'): Promise<{ errors: string; streams: ProbeStream[]; duration: number; resolution: string }> {
  const args = ['-v', 'error', `-count_${count}`, '-show_entries', `stream=codec_name,codec_type,width,height,nb_read_${count}:format=duration`, '-of', 'json', path];
  return new Promise((resolve, reject) => {
    execFile(ffprobeBin(), args, { maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err && !stdout) return reject(new Error(`ffprobe failed on ${path}: ${stderr || err.message}`));
      const info = JSON.parse(stdout) as { streams?: ProbeStream[]; format?: { duration?: string } };
      const video = info.streams?.find((s) => s.codec_type === 'video');
      resolve({
        errors: stderr.trim(),
        streams: info.streams ?? [],
        duration: Number(info.format?.duration ?? Number.NaN),
        resolution: video ? `${video.width}x${video.height}` : '',
      });
    });
  });
}

/** Runs ffprobe over the whole file (packet count forces a full read), returning codecs, duration and errors. */
export async function probe(path: string): Promise<ProbeResult> {
  const r = await probeStreams(path, 'packets');
  return { errors: r.errors, codecs: r.streams.map((s) => s.codec_name), duration: r.duration, packets: r.streams.map((s) => Number(s.nb_read_packets)), resolution: r.resolution };
}
