// Gap tests: the simulator's frame identity (the timestamp SEI every FLV and HLS frame carries) and decoded-frame hashes.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { FlvParser } from '../../src/flv/parser.js';
import { TagType } from '../../src/flv/tag.js';
import { clipPath } from '../../src/simulator/clips.js';
import { readSamples } from '../../src/hls/backfill/fmp4-samples.js';
import { parseInit } from '../../src/hls/mp4-boxes.js';
import { ffmpegBin, ffprobeBin } from '../support/media-tools.js';

const SEI_UUID = Buffer.from('6c6976657265632d73696d2d74696d65', 'hex');

/** The stream timestamp in each video frame's SEI, in file order (a frame without one gives NaN). */
export function seiTimestamps(path: string): number[] {
  const { tags } = new FlvParser().push(readFileSync(path));
  const out: number[] = [];
  for (const t of tags) {
    if (t.type !== TagType.Video || !t.data || t.data[1] !== 1) continue;
    const body = Buffer.from(t.data.buffer, t.data.byteOffset, t.data.length);
    const at = body.indexOf(SEI_UUID);
    out.push(at < 0 ? Number.NaN : Number(body.subarray(at + 16, at + 28).toString('latin1')));
  }
  return out;
}

/** The same for an fMP4 recording: the SEI timestamp of each video sample, in file order. */
export function seiTimestampsMp4(path: string): number[] {
  const buf = readFileSync(path);
  const init = parseInit(buf);
  const video = init?.tracks.find((t) => t.handler === 'vide')?.trackId;
  return readSamples(buf, init).samples.filter((s) => s.trackId === video).map((s) => {
    const body = Buffer.from(s.bytes.buffer, s.bytes.byteOffset, s.bytes.length);
    const at = body.indexOf(SEI_UUID);
    return at < 0 ? Number.NaN : Number(body.subarray(at + 16, at + 28).toString('latin1'));
  });
}

function run(bin: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(bin, args, { maxBuffer: 64 << 20 }, (err, stdout, stderr) => (err ? reject(Object.assign(err, { stderr })) : resolve({ stdout, stderr })));
  });
}

/** `ffmpeg -f framemd5` of the video stream: one hash per decoded frame, in order. */
export async function videoFrameMd5s(path: string): Promise<string[]> {
  const { stdout } = await run(ffmpegBin(), ['-v', 'error', '-i', path, '-map', '0:v:0', '-f', 'framemd5', '-']);
  return stdout.split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split(',').at(-1)!.trim());
}

/** Decoded hashes of one loop of the committed 360p clip: frame i (stream ms 40·i modulo the loop) decodes to [i]. */
export async function clipFrameMd5s(): Promise<string[]> {
  return videoFrameMd5s(clipPath('clip-360p.flv'));
}

/** ffprobe's complaints while decoding every frame ('' = clean). */
export async function probeErrors(path: string): Promise<string> {
  const { stderr } = await run(ffprobeBin(), ['-v', 'error', '-count_frames', '-show_entries', 'stream=nb_read_frames', '-of', 'json', path]);
  return stderr.trim();
}

/** Stream video frame times from `first` to `last` (the clip's 25 fps: one every 40 ms). */
export function framesBetween(first: number, last: number, step = 40): number[] {
  const out: number[] = [];
  for (let t = first; t <= last; t += step) out.push(t);
  return out;
}

/** Where the SEI sequence skips frames: [last before, first after] for each break. */
export function breaks(sei: readonly number[], step = 40): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 1; i < sei.length; i++) if (sei[i]! !== sei[i - 1]! + step) out.push([sei[i - 1]!, sei[i]!]);
  return out;
}

/** Decodes `path` and checks each frame against the clip's frame at its stream time; returns ffprobe's complaints. */
export async function expectClipFrames(path: string, sei: readonly number[], expectEqual: (got: unknown, want: unknown) => void): Promise<string> {
  const clip = await clipFrameMd5s();
  expectEqual(await videoFrameMd5s(path), sei.map((t) => clip[(t % 3840) / 40]));
  return probeErrors(path);
}
