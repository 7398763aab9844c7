// Turns raw samples into the benchmark's figures: CPU, RSS, machine load, input rate, brec's durationRatio, recorder IO (pace: pace.ts).
import type { ProcSample } from './proc.js';
import type { ApiRoom } from './recorder-process.js';
import type { TimedSample } from './sampler.js';
import type { SimRoomCounters } from './simulator-process.js';

export interface ProcFigures {
  cpuS: number;
  /** User time within cpuS; on this kind of VM system time swings with the host's page handling (docs/performance.md). */
  userS: number;
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
  const userS = last.userS - first.userS;
  const rss = samples.map((s) => s.rssKiB / 1024);
  return { cpuS, userS, wallS, cpuPct: (100 * cpuS) / wallS, rssPeakMiB: Math.max(...rss), rssMeanMiB: rss.reduce((a, b) => a + b, 0) / rss.length };
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
