// "Pace": media time recorded (or served) per wall time, per room, over sliding windows; 1.0 = keeps up with real time.
import type { ApiRoom } from './recorder-process.js';
import type { TimedSample } from './sampler.js';
import type { SimRoomCounters } from './simulator-process.js';

export interface PaceFigures {
  /** Lowest media-ms / wall-ms over every room and every sliding window. */
  lowest: number;
  lowestRoom: number;
  /** Window length actually used (10 s, or the whole span when shorter). */
  windowS: number;
  windows: number;
  /** Lowest over rooms of the ratio over the whole span. */
  lowestWhole: number;
}

type Point = { x: number; y: number };

/** Points split where x drops (a new recorder session or file clock); repeated x values are dropped. */
function unbrokenRuns(points: readonly Point[]): Point[][] {
  const runs: Point[][] = [];
  for (const p of points) {
    const run = runs.at(-1);
    if (!run || p.x < run.at(-1)!.x) runs.push([p]);
    else if (p.x > run.at(-1)!.x) run.push(p);
  }
  return runs;
}

/** Sliding windows of at least `windowMs` between sample points, per room; a drop in x starts a new segment. */
export function lowestPace(series: Map<number, Point[]>, windowMs: number): PaceFigures {
  const r: PaceFigures = { lowest: Number.POSITIVE_INFINITY, lowestRoom: 0, windowS: 0, windows: 0, lowestWhole: Number.POSITIVE_INFINITY };
  let usedW = windowMs;
  for (const [room, points] of series) {
    for (const seg of unbrokenRuns(points)) {
      if (seg.length < 2) continue;
      const span = seg.at(-1)!.x - seg[0]!.x;
      const w = Math.min(windowMs, span);
      usedW = Math.min(usedW, w);
      const whole = (seg.at(-1)!.y - seg[0]!.y) / span;
      r.lowestWhole = Math.min(r.lowestWhole, whole);
      let j = 1;
      for (let i = 0; i < seg.length - 1; i++) {
        j = Math.max(j, i + 1);
        while (j < seg.length && seg[j]!.x - seg[i]!.x < w) j++;
        if (j === seg.length) break;
        const pace = (seg[j]!.y - seg[i]!.y) / (seg[j]!.x - seg[i]!.x);
        r.windows++;
        if (pace < r.lowest) {
          r.lowest = pace;
          r.lowestRoom = room;
        }
      }
    }
  }
  r.windowS = usedW / 1000;
  if (!r.windows) r.lowest = r.lowestWhole = Number.NaN;
  return r;
}

/**
 * The recorder's own view: sessionMaxTimestamp (media ms) against sessionDuration (the recorder's wall ms) of
 * the same stats snapshot, so neither the 1-s polling nor the 500-ms stats batching adds jitter.
 */
export function recorderSeries(apiRooms: TimedSample<ApiRoom[]>[]): Map<number, Point[]> {
  const m = new Map<number, Point[]>();
  for (const s of apiRooms) {
    for (const r of s.value) {
      if (r.recordingStats.sessionMaxTimestamp <= 0) continue;
      const list = m.get(r.roomId) ?? [];
      list.push({ x: r.recordingStats.sessionDuration, y: r.recordingStats.sessionMaxTimestamp });
      m.set(r.roomId, list);
    }
  }
  return m;
}

/** The simulator's view: media ms it served each room (mediaMsServed) against the time of the sample. */
export function simSeries(simRooms: TimedSample<Map<number, SimRoomCounters>>[], roomIds: readonly number[]): Map<number, Point[]> {
  const m = new Map<number, Point[]>(roomIds.map((id) => [id, []]));
  for (const s of simRooms) for (const id of roomIds) {
    const c = s.value.get(id);
    if (c) m.get(id)!.push({ x: s.t, y: c.mediaMsServed });
  }
  return m;
}

/**
 * HLS: media advances one whole segment at a time (1.92 s for the generated clips), so a 10-s window can be off
 * by a fifth either way. Here each room's pace is the least-squares slope of media ms over wall ms across each
 * unbroken run of samples, which averages the steps out; `lowest` is the lowest slope and `windowS` the shortest run.
 */
export function slopePace(series: Map<number, Point[]>): PaceFigures {
  const r: PaceFigures = { lowest: Number.POSITIVE_INFINITY, lowestRoom: 0, windowS: Number.POSITIVE_INFINITY, windows: 0, lowestWhole: Number.POSITIVE_INFINITY };
  for (const [room, points] of series) {
    for (const run of unbrokenRuns(points)) {
      if (run.length < 3) continue;
      const n = run.length;
      const mx = run.reduce((s, p) => s + p.x, 0) / n;
      const my = run.reduce((s, p) => s + p.y, 0) / n;
      let sxy = 0;
      let sxx = 0;
      for (const p of run) {
        sxy += (p.x - mx) * (p.y - my);
        sxx += (p.x - mx) ** 2;
      }
      const slope = sxy / sxx;
      r.windows++;
      r.windowS = Math.min(r.windowS, (run.at(-1)!.x - run[0]!.x) / 1000);
      r.lowestWhole = Math.min(r.lowestWhole, (run.at(-1)!.y - run[0]!.y) / (run.at(-1)!.x - run[0]!.x));
      if (slope < r.lowest) {
        r.lowest = slope;
        r.lowestRoom = room;
      }
    }
  }
  if (!r.windows) r.lowest = r.lowestWhole = r.windowS = Number.NaN;
  return r;
}

const PACE_WINDOW_MS = 10_000;

/** The pace figure of a phase: sliding 10-s windows over FLV, the slope over HLS (see slopePace). */
export function paceOf(series: Map<number, Point[]>, hls: boolean): PaceFigures {
  return hls ? slopePace(series) : lowestPace(series, PACE_WINDOW_MS);
}
