// Test media for post-file jobs: the simulator's clips, longer FLV recordings made from them, and ffprobe's view of a file.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
export const FFPROBE: string = (require('@ffprobe-installer/ffprobe') as { path: string }).path;
export const clip = (name: string): string => fileURLToPath(new URL(`../../src/simulator/clips/${name}`, import.meta.url));

/** An FLV of `loops` back-to-back copies of a clip (sequence headers once, timestamps continued), as a long recording. */
export function longFlv(clipName: string, loops: number, out: string): void {
  const src = readFileSync(clip(clipName));
  const headerEnd = src.readUInt32BE(5) + 4;
  const tags: { ts: number; buf: Buffer; config: boolean }[] = [];
  let last = 0;
  for (let p = headerEnd; p + 11 <= src.length;) {
    const size = src.readUIntBE(p + 1, 3);
    const ts = ((src[p + 7]! << 24) | src.readUIntBE(p + 4, 3)) >>> 0;
    const type = src[p]! & 0x1f;
    const body = src.subarray(p + 11, p + 11 + size);
    const config = type === 18 || (type === 9 && ((body[0]! & 0x80 ? body[0]! & 0x0f : body[1]!) === 0)) || (type === 8 && body[1] === 0);
    tags.push({ ts, buf: src.subarray(p, p + 11 + size + 4), config });
    last = Math.max(last, ts);
    p += 11 + size + 4;
  }
  const period = Math.round(last / 960) * 960 + 0; // the clips loop every 3.84 s
  const parts: Buffer[] = [src.subarray(0, headerEnd)];
  for (let i = 0; i < loops; i++) {
    for (const t of tags) {
      if (i > 0 && t.config) continue;
      const b = Buffer.from(t.buf);
      const ts = t.ts + i * (period || 3840);
      b.writeUIntBE(ts & 0xffffff, 4, 3);
      b[7] = (ts >>> 24) & 0xff;
      parts.push(b);
    }
  }
  writeFileSync(out, Buffer.concat(parts));
}

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
