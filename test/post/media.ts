// Test media for post-file jobs: the simulator's clips, longer FLV recordings made from them, and ffprobe's view of a file.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
export const FFPROBE: string = (require('@ffprobe-installer/ffprobe') as { path: string }).path;
export const clip = (name: string): string => fileURLToPath(new URL(`../../src/simulator/clips/${name}`, import.meta.url));

export { longFlv } from '../../bench/long-flv.js';

export interface Probe {
  streams: { codec_type: string; codec_name: string; nb_read_packets?: string }[];
  format: { duration?: string };
}

export function ffprobe(file: string): Probe {
  const out = execFileSync(FFPROBE, ['-v', 'error', '-count_packets', '-show_entries', 'stream=codec_type,codec_name,nb_read_packets:format=duration', '-of', 'json', file],
    { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(out) as Probe;
}

export interface MediaFacts {
  /** Per stream in file order: kind and packet count. */
  streams: { kind: string; packets: number }[];
  /** Seconds the video covers: frames × the mean frame interval. */
  videoDuration: number;
}

/** What ffprobe reads in a file: its streams' packet counts and the video's duration from the packets' decode times. */
export function mediaFacts(file: string): MediaFacts {
  const p = ffprobe(file);
  const csv = execFileSync(FFPROBE, ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=dts_time', '-of', 'csv=p=0', file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const dts = csv.split('\n').map((l) => l.trim().replace(/,$/, '')).filter((l) => l !== '' && l !== 'N/A').map(Number);
  return {
    streams: p.streams.map((s) => ({ kind: s.codec_type, packets: Number(s.nb_read_packets) })),
    videoDuration: dts.length > 1 ? ((dts[dts.length - 1]! - dts[0]!) * dts.length) / (dts.length - 1) : 0,
  };
}
