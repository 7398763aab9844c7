// Which ffmpeg the benchmark compares against, and whether the files it wrote probe clean (a ratio against a broken peer means nothing).
import { execFile, execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
import type { StreamFormat } from '../src/bilibili/recording-protocol.js';
import { ffmpegBin } from './ffmpeg-bin.js';

export interface PeerTools {
  ffmpeg: string;
  ffprobe: string;
  /** `PATH` (a system ffmpeg) or `devDependency` (@ffmpeg-installer's 2018 build). */
  source: 'PATH' | 'devDependency';
  /** The first line of `ffmpeg -version`. */
  version: string;
}

/** An executable named `name` on PATH, or null. */
export function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not here
    }
  }
  return null;
}

function devFfprobe(): string {
  return (createRequire(import.meta.url)('@ffprobe-installer/ffprobe') as { path: string }).path;
}

const versionOf = (bin: string): string => {
  try {
    return execFileSync(bin, ['-version'], { encoding: 'utf8' }).split('\n')[0]!.trim();
  } catch {
    return 'unknown';
  }
};

/**
 * FLV: the devDependency (what every FLV figure so far used). HLS: an ffmpeg on PATH when there is one (Debian's
 * 5.1 on the benchmark machine), because the 2018 devDependency writes broken files from HLS fMP4 (about 55
 * timestamp gaps per file); without one the run is flagged (see comparisonFlags).
 */
export function peerTools(format: StreamFormat): PeerTools {
  const system = format === 'flv' ? null : onPath('ffmpeg');
  if (system) {
    const probe = onPath('ffprobe') ?? devFfprobe();
    return { ffmpeg: system, ffprobe: probe, source: 'PATH', version: versionOf(system) };
  }
  const bin = ffmpegBin();
  return { ffmpeg: bin, ffprobe: devFfprobe(), source: 'devDependency', version: versionOf(bin) };
}

export interface PeerProbe {
  files: number;
  /** Files on which ffprobe, reading every packet, printed warnings or errors. */
  unclean: number;
  /** The first such message, for the flag. */
  firstProblem: string | null;
}

/** Reads every packet of each file with ffprobe at warning level, a few at a time; any message makes a file unclean. */
export async function probePeerFiles(ffprobe: string, files: readonly string[], parallel = 4): Promise<PeerProbe> {
  let unclean = 0;
  let firstProblem: string | null = null;
  const queue = [...files];
  const one = (file: string): Promise<void> => new Promise((resolve) => {
    execFile(ffprobe, ['-v', 'warning', '-count_packets', '-show_entries', 'stream=nb_read_packets', '-of', 'csv=p=0', file], { maxBuffer: 64 << 20 }, (err, _out, stderr) => {
      const problem = stderr.trim() || (err ? err.message : '');
      if (problem) {
        unclean++;
        firstProblem ??= `${file}: ${problem.split('\n')[0]}`;
      }
      resolve();
    });
  });
  await Promise.all(Array.from({ length: parallel }, async () => {
    for (let f = queue.shift(); f !== undefined; f = queue.shift()) await one(f);
  }));
  return { files: files.length, unclean, firstProblem };
}
