// One clip of a recording, start to finish: the cut, the MP4 (verified) or FLV, then the danmaku of its span.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { LiverecError } from '../errors.js';
import { readMp4Summary } from '../post/remux/mp4-summary.js';
import { verifyRemux, verifySamples } from '../post/remux/verify.js';
import { clipDanmaku } from './clip-danmaku.js';
import { clipToFlv } from './clip-flv.js';
import { clipFormat, clipToMp4, findCut } from './clip-mp4.js';

export const CLIP_FORMATS = ['mp4', 'flv'] as const;
export type ClipFormat = (typeof CLIP_FORMATS)[number];

/** A clip may not be longer than this (a whole recording is downloaded, not clipped). */
export const MAX_CLIP_MS = 6 * 3600_000;

export interface ClipRequest {
  input: string;
  startMs: number;
  endMs: number;
  format: ClipFormat;
  /** Also write the span's danmaku as XML and ASS (when the source has its XML beside it). */
  danmaku: boolean;
}

export interface ClipResult {
  /** The clip's video file. */
  output: string;
  /** Where the clip really starts on the source's timeline: the keyframe at or before startMs. */
  fromMs: number;
  toMs: number;
  /** Seconds the clip's video lasts. */
  durationS: number;
  danmaku: { xml: string; ass: string; items: number } | null;
}

const base = (path: string): string => path.replace(/\.[^./\\]+$/, '');

/** `<source base>.clip-<startMs>-<endMs>`: beside the source, so its folder lists it and retention sees it. */
export const clipBase = (input: string, startMs: number, endMs: number): string => `${base(input)}.clip-${Math.round(startMs)}-${Math.round(endMs)}`;

/** A request's numbers, checked; a LiverecError with code CLIP_BAD_RANGE otherwise. */
export function checkRange(startMs: number, endMs: number): void {
  if (!Number.isFinite(startMs) || !Number.isFinite(endMs) || startMs < 0) throw new LiverecError('CLIP_BAD_RANGE', 'startMs and endMs must be numbers, startMs ≥ 0');
  if (endMs <= startMs) throw new LiverecError('CLIP_BAD_RANGE', 'endMs must be after startMs');
  if (endMs - startMs > MAX_CLIP_MS) throw new LiverecError('CLIP_BAD_RANGE', `a clip lasts at most ${MAX_CLIP_MS / 3600_000} hours`);
}

/**
 * Writes the clip beside the source (the source is only read). Each file is written under a temporary name and
 * renamed when whole; an MP4 is read back and checked against what was cut before it is kept.
 */
export function makeClip(req: ClipRequest): ClipResult {
  checkRange(req.startMs, req.endMs);
  if (!existsSync(req.input)) throw new LiverecError('CLIP_NO_SOURCE', `${req.input} does not exist`);
  const format = clipFormat(req.input);
  if (req.format === 'flv' && format !== 'flv') throw new LiverecError('CLIP_BAD_INPUT', `an FLV clip needs an FLV source; ${req.input} is ${format}`);
  const cut = findCut(req.input, req.startMs, req.endMs);
  const out = clipBase(req.input, req.startMs, req.endMs);
  const output = `${out}.${req.format}`;
  const tmp = `${output}.clip-tmp`;
  let durationS: number;
  try {
    if (req.format === 'mp4') {
      const report = clipToMp4(req.input, tmp, cut);
      const written = readMp4Summary(tmp);
      const problem = verifyRemux(report, written) ?? verifySamples(report, written!, tmp);
      if (problem) throw new LiverecError('CLIP_VERIFY', `the clip of ${req.input} does not match it: ${problem}`);
      durationS = Math.max(...report.tracks.map((t) => t.duration));
    } else {
      durationS = clipToFlv(req.input, tmp, cut).durationMs / 1000;
    }
    renameSync(tmp, output);
  } finally {
    rmSync(tmp, { force: true });
    rmSync(`${tmp}.tables`, { force: true });
  }
  const xml = `${base(req.input)}.xml`;
  const danmaku = req.danmaku && existsSync(xml) ? clipDanmaku(xml, out, cut.fromMs, cut.toMs, req.input) : null;
  return { output, fromMs: cut.fromMs, toMs: cut.toMs, durationS, danmaku };
}
