// Where a new connection's frames meet the file after a drop: aligned by frame content through the HLS window, or a gap.
import { frameKey, type MediaFrame } from './frames.js';

/** What the file holds at the drop (timestamps on the timeline of the tags already given to the repair). */
export interface WrittenEnd {
  /** The last video frame received, with its content key; null: nothing yet (a late start). */
  video: { ts: number; key: string } | null;
  audioTs: number | null;
  /** Keys → timestamps of the open GOP's video frames (a CDN's GOP cache resends them). */
  recent: Map<string, number>;
  /** One video frame's duration. */
  frameMs: number;
}

/** The new connection's first keyframe (its timestamp and key) and its first audio frame at or after it. */
export interface NewStart {
  ts: number;
  key: string;
  firstAudioTs: number | null;
}

export interface Splice {
  kind: 'splice';
  /** HLS frames to write before the new connection's, at `frame.ms - fillOffset`. */
  fill: MediaFrame[];
  fillOffset: number;
  /** Added to the new connection's timestamps. */
  shift: number;
  /** New-connection frames at or before these (shifted) times are already in the file: dropped. */
  dropVideoUpTo: number | null;
  dropAudioUpTo: number | null;
  /** Media the file lacks, placed right after the written end (input ms). */
  gap: { atTs: number; durationMs: number } | null;
  /** How it was aligned, for the log. */
  how: 'gop-cache' | 'hls' | 'hls-partial' | 'hls-late-start' | 'unaligned';
}

export type Plan = Splice | { kind: 'wait' } | { kind: 'older' };

/** HLS may hold the old bytes under other timestamps, or none: this much more than the wall-clock outage is believed. */
const PLAUSIBLE_SLACK_MS = 30_000;

export interface PlanInput {
  end: WrittenEnd;
  start: NewStart;
  hls: readonly MediaFrame[];
  hevc: boolean;
  /** No more waiting for HLS and no older segment to get: decide now. */
  final: boolean;
  /** Whether older segments may still be fetched. */
  canReachBack: boolean;
  /** Wall-clock ms since the drop (the estimate of a gap when nothing else tells). */
  wallGapMs: number;
  /** How far back a late start may reach (ms). */
  maxBackMs: number;
  /** Content keys of HLS frames worked out by an earlier try (a wait tries again with the same frames and more). */
  keys?: WeakMap<MediaFrame, string>;
}

export function planSplice(i: PlanInput): Plan {
  const { end, start } = i;
  const L = end.video;
  // 1. The new connection starts inside what the file already has (a GOP cache): drop the repeated frames.
  const cached = end.recent.get(start.key);
  if (cached !== undefined && L) {
    const shift = cached - start.ts;
    return { kind: 'splice', fill: [], fillOffset: 0, shift, dropVideoUpTo: L.ts, dropAudioUpTo: end.audioTs, gap: null, how: 'gop-cache' };
  }
  const keys = i.keys ?? new WeakMap<MediaFrame, string>();
  const keyOf = (f: MediaFrame): string => {
    let k = keys.get(f);
    if (k === undefined) keys.set(f, (k = frameKey(f.video, f.payload, i.hevc)));
    return k;
  };
  const video = i.hls.filter((f) => f.video);
  const ki = video.findIndex((f) => keyOf(f) === start.key);
  if (ki < 0) return i.final ? unaligned(i) : { kind: 'wait' };
  const K = video[ki]!;
  if (i.hls.some((f) => f.init !== K.init)) {
    // The window spans a change of parameters (a new init section): only frames under K's can join the file, which
    // the new connection's sequence header describes; older ones than those are of the other parameters too. Only
    // the run of K's init that K is in: a change and its reverse (A, B, A) bring back an init key seen before, and the
    // older run of it is not contiguous with K (soak seed 7474 run 30: B's 2880 ms became a hole inside the file).
    let runFrom = -Infinity;
    for (const f of i.hls) if (f.init !== K.init && f.ms < K.ms && f.ms > runFrom) runFrom = f.ms;
    const older = runFrom > -Infinity;
    return planSplice({ ...i, hls: i.hls.filter((f) => f.init === K.init && f.ms > runFrom), canReachBack: i.canReachBack && !older });
  }
  const offsetK = K.ms - start.ts; // HLS ms = new-connection ts + offsetK
  const newAudioHls = start.firstAudioTs !== null ? start.firstAudioTs + offsetK : K.ms;
  const audioBetween = (from: number, to: number): MediaFrame[] => i.hls.filter((f) => !f.video && f.ms > from && f.ms < to);
  if (!L) {
    // 2. A late start: from the oldest keyframe within reach.
    if (!i.final && i.canReachBack && (video[0]?.ms ?? K.ms) > K.ms - i.maxBackMs) return { kind: 'older' };
    const fi = video.findIndex((f, n) => n <= ki && f.key && f.ms >= K.ms - i.maxBackMs);
    const F = video[fi]!;
    const fill = [...video.slice(fi, ki), ...audioBetween(F.ms - 1, newAudioHls)].sort(order);
    return { kind: 'splice', fill, fillOffset: offsetK, shift: 0, dropVideoUpTo: null, dropAudioUpTo: null, gap: null, how: 'hls-late-start' };
  }
  const li = video.findIndex((f) => keyOf(f) === L.key);
  if (li >= 0) {
    // 3. Both ends found: everything between them, on the file's timeline.
    const oldOffset = video[li]!.ms - L.ts;
    const shift = offsetK - oldOffset;
    if (li >= ki) return { kind: 'splice', fill: [], fillOffset: 0, shift, dropVideoUpTo: L.ts, dropAudioUpTo: end.audioTs, gap: null, how: 'hls' };
    const audioFrom = end.audioTs !== null ? end.audioTs + oldOffset : video[li]!.ms;
    const fill = [...video.slice(li + 1, ki), ...audioBetween(audioFrom, newAudioHls)].sort(order);
    return { kind: 'splice', fill, fillOffset: oldOffset, shift, dropVideoUpTo: L.ts, dropAudioUpTo: end.audioTs, gap: null, how: 'hls' };
  }
  // 4. The written end is not in the window: the stream's timestamps run on across connections, or nothing aligns.
  const plausible = start.ts > L.ts && start.ts - L.ts <= i.wallGapMs + PLAUSIBLE_SLACK_MS;
  if (!plausible) return i.final ? unaligned(i) : { kind: 'wait' };
  const lHls = L.ts + offsetK;
  const oldest = video[0]!;
  if (oldest.ms > lHls && !i.final && i.canReachBack) return { kind: 'older' };
  if (oldest.ms <= lHls) return unaligned(i); // the window covers the written end, with other bytes: other content
  const fi = video.findIndex((f, n) => n <= ki && f.key && f.ms > lHls);
  const F = video[fi]!;
  const lost = F.ms - lHls - end.frameMs;
  // The fill starts right after the written end: the lost interval is reported, not left in the timestamps.
  const fillOffset = oldOffsetClosing(F.ms, L.ts + end.frameMs);
  const audioFrom = Math.max(F.ms - 1, end.audioTs !== null ? end.audioTs + offsetK : -Infinity);
  const fill = [...video.slice(fi, ki), ...audioBetween(audioFrom, newAudioHls)].sort(order);
  return {
    kind: 'splice', fill, fillOffset, shift: offsetK - fillOffset, dropVideoUpTo: L.ts, dropAudioUpTo: end.audioTs,
    gap: lost > 0 ? { atTs: L.ts + end.frameMs, durationMs: lost } : null, how: 'hls-partial',
  };
}

/** The offset that puts HLS time `hlsMs` at file input time `ts`. */
function oldOffsetClosing(hlsMs: number, ts: number): number {
  return hlsMs - ts;
}

/** Nothing aligns: the new connection follows the written end directly; the lost time is estimated and reported. */
function unaligned(i: PlanInput): Splice {
  const { end, start } = i;
  const L = end.video;
  if (!L) return { kind: 'splice', fill: [], fillOffset: 0, shift: 0, dropVideoUpTo: null, dropAudioUpTo: null, gap: null, how: 'unaligned' };
  const next = L.ts + end.frameMs;
  const continuous = start.ts > L.ts && start.ts - L.ts <= i.wallGapMs + PLAUSIBLE_SLACK_MS;
  const lost = continuous ? start.ts - next : i.wallGapMs;
  return {
    kind: 'splice', fill: [], fillOffset: 0, shift: next - start.ts, dropVideoUpTo: L.ts, dropAudioUpTo: end.audioTs,
    gap: lost > 0 ? { atTs: next, durationMs: lost } : null, how: 'unaligned',
  };
}

const order = (a: MediaFrame, b: MediaFrame): number => a.ms - b.ms || Number(b.video) - Number(a.video);
