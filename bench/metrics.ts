// Turns raw samples into the benchmark's figures: CPU, RSS, input rate, pace, brec's durationRatio, recorder IO.
import type { ProcSample } from './proc.js';
import type { ApiRoom } from './recorder-process.js';
import type { TimedSample } from './sampler.js';
import type { SimRoomCounters } from './simulator-process.js';

export interface ProcFigures {
  cpuS: number;
  wallS: number;
  /** Percent of one core. */
  cpuPct: number;
  rssPeakMiB: number;
  rssMeanMiB: number;
}

export function procFigures(samples: ProcSample[]): ProcFigures {
  const first = samples[0]!;
  const last = samples.at(-1)!;
  const wallS = (last.t - first.t) / 1000;
  const cpuS = last.cpuS - first.cpuS;
  const rss = samples.map((s) => s.rssKiB / 1024);
  return { cpuS, wallS, cpuPct: (100 * cpuS) / wallS, rssPeakMiB: Math.max(...rss), rssMeanMiB: rss.reduce((a, b) => a + b, 0) / rss.length };
}

export interface MachineFigures {
  /** CPU of every process on the machine, percent of one core (up to 100 x cores). */
  busyPct: number;
  /** Of that, what neither the measured recorder, the simulator, the load process nor the benchmark itself used. */
  othersPct: number;
}

/** Machine-wide process CPU over the window, and the part no benchmark process accounts for. */
export function machineFigures(measured: ProcSample[][]): MachineFigures {
  const base = measured[0]!;
  const first = base[0]!;
  const last = base.at(-1)!;
  const wallS = (last.t - first.t) / 1000;
  const busyPct = (100 * (last.machineS - first.machineS)) / wallS;
  let ours = (100 * (last.benchS - first.benchS)) / wallS;
  for (const group of measured) if (group.length > 1) ours += procFigures(group).cpuPct;
  return { busyPct, othersPct: Math.max(0, busyPct - ours) };
}

export interface InputFigures {
  /** Bytes the simulator served to the rooms in the window (its bytesServed counters). */
  bytes: number;
  wallS: number;
  /** Decimal megabits per second, all rooms together. */
  mbps: number;
}

export function inputFigures(simRooms: TimedSample<Map<number, SimRoomCounters>>[], roomIds: readonly number[]): InputFigures {
  const first = simRooms[0]!;
  const last = simRooms.at(-1)!;
  let bytes = 0;
  for (const id of roomIds) bytes += (last.value.get(id)?.bytesServed ?? 0) - (first.value.get(id)?.bytesServed ?? 0);
  const wallS = (last.t - first.t) / 1000;
  return { bytes, wallS, mbps: (bytes * 8) / wallS / 1e6 };
}

/** CPU seconds per decimal GB of input; CPU and bytes are each taken as a rate over their own sample times. */
export function cpuSecondsPerGb(proc: ProcFigures, input: InputFigures): number {
  return proc.cpuS / proc.wallS / (input.bytes / input.wallS / 1e9);
}

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

/** Sliding windows of at least `windowMs` between sample points, per room; a drop in x starts a new segment. */
export function lowestPace(series: Map<number, Point[]>, windowMs: number): PaceFigures {
  const r: PaceFigures = { lowest: Number.POSITIVE_INFINITY, lowestRoom: 0, windowS: 0, windows: 0, lowestWhole: Number.POSITIVE_INFINITY };
  let usedW = windowMs;
  for (const [room, points] of series) {
    const segments: Point[][] = [];
    for (const p of points) {
      const seg = segments.at(-1);
      if (!seg || p.x < seg.at(-1)!.x) segments.push([p]);
      else if (p.x > seg.at(-1)!.x) seg.push(p);
    }
    for (const seg of segments) {
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

export interface BrecRatioFigures {
  lowest: number;
  lowestRoom: number;
  mean: number;
  /** Room samples read (one per room per second). */
  samples: number;
  /** Room samples whose ratio was "NaN" (no group yet since a reset). */
  nan: number;
}

export function brecRatio(apiRooms: TimedSample<ApiRoom[]>[]): BrecRatioFigures {
  const r: BrecRatioFigures = { lowest: Number.POSITIVE_INFINITY, lowestRoom: 0, mean: 0, samples: 0, nan: 0 };
  let sum = 0;
  for (const s of apiRooms) for (const room of s.value) {
    const v = room.recordingStats.durationRatio;
    r.samples++;
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      r.nan++;
      continue;
    }
    sum += v;
    if (v < r.lowest) {
      r.lowest = v;
      r.lowestRoom = room.roomId;
    }
  }
  r.mean = sum / Math.max(1, r.samples - r.nan);
  if (r.samples === r.nan) r.lowest = Number.NaN;
  return r;
}

export interface RecorderIoFigures {
  /** What the recorder says it downloaded and wrote (its 2-s ioStats intervals), decimal Mbit/s, all rooms. */
  networkMbps: number;
  diskMbps: number;
  intervals: number;
}

export function recorderIo(apiRooms: TimedSample<ApiRoom[]>[]): RecorderIoFigures {
  const seen = new Set<string>();
  const perRoom = new Map<number, { net: number; disk: number; ms: number }>();
  for (const s of apiRooms) for (const r of s.value) {
    const io = r.ioStats;
    if (!io.endTime || io.duration <= 0 || seen.has(`${r.roomId} ${io.endTime}`)) continue;
    seen.add(`${r.roomId} ${io.endTime}`);
    const acc = perRoom.get(r.roomId) ?? { net: 0, disk: 0, ms: 0 };
    acc.net += io.networkBytesDownloaded;
    acc.disk += io.diskBytesWritten;
    acc.ms += io.duration;
    perRoom.set(r.roomId, acc);
  }
  let net = 0;
  let disk = 0;
  for (const a of perRoom.values()) {
    net += (a.net * 8) / (a.ms / 1000) / 1e6;
    disk += (a.disk * 8) / (a.ms / 1000) / 1e6;
  }
  return { networkMbps: net, diskMbps: disk, intervals: seen.size };
}
