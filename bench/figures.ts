// The figures of one benchmark run (one room count): the shape of the table rows and of the results JSON.
import type { PeerProbe } from './peer-ffmpeg.js';
import type { WakeupFigures } from './wake-probe.js';
import type { LatencySummary } from './latency.js';
import type { PhaseTotals } from './output-bytes.js';
import type { BrecRatioFigures, InputFigures, MachineFigures, ProcFigures, RecorderIoFigures } from './metrics.js';
import type { PaceFigures } from './pace.js';
import type { BenchProtocol } from './options.js';

export interface ApiLoadFigures extends LatencySummary {
  targetRps: number;
  seconds: number;
  sent: number;
  ok: number;
  httpErrors: number;
  netErrors: number;
  unanswered: number;
  achievedRps: number;
  maxSendLagMs: number;
  meanResponseBytes: number;
  errorSamples: string[];
  /** Seconds of load at the same rate before the measured window (the API's code paths warm up); not in the figures above. */
  warmupSeconds: number;
  /** Latency during that warm-up (cold JIT, first connections), reported apart. */
  warmup: LatencySummary | null;
  /** How late an idle thread of the load process woke from 1-ms sleeps in the measured window (the machine's floor). */
  wakeup: WakeupFigures | null;
}

export interface LiverecFigures {
  /** null = liverec's default placement (no --rooms-per-worker flag). */
  roomsPerWorker: number | null;
  workers: number;
  /** The placement in words, e.g. "default: 4 thread(s)". */
  placement: string;
  /** Seconds from start until every room had recorded media. */
  startupS: number;
  input: InputFigures;
  /** Growth of the output files over the recording-only window, decimal Mbit/s, all rooms. */
  outMbps: number;
  /** Whole phase: bytes served to liverec, bytes in its files after it stopped. */
  totals: PhaseTotals;
  /** The recording-only window (no API load): the figures compared with ffmpeg. */
  cpu: ProcFigures;
  cpuSecondsPerGb: number;
  /** The window with the API load running (null with --api-rps 0). */
  cpuUnderApiLoad: ProcFigures | null;
  /** Peak VmRSS over both windows. */
  rssPeakMiB: number;
  rssPerRoomMiB: number;
  /** Proportional set size at the end (equal to RSS for one process; kept for comparison with ffmpeg's). */
  pssMiB: number | null;
  /** Over both windows together (the table's figure). */
  pace: PaceFigures;
  paceByWindow: { recordingOnly: PaceFigures; underApiLoad: PaceFigures | null };
  simPace: PaceFigures;
  brecDurationRatio: BrecRatioFigures;
  io: RecorderIoFigures;
  api: ApiLoadFigures | null;
  /** CPU of the load process itself while it ran (percent of one core). */
  apiLoadProcessCpuPct: number | null;
  simulatorCpuPct: number;
  machine: { recordingOnly: MachineFigures; underApiLoad: MachineFigures | null };
  missedSamples: { sim: number; api: number };
}

export interface FfmpegFigures {
  processes: number;
  /** Which ffmpeg ran (bench/peer-ffmpeg.ts) and whether its files probe clean. */
  peer: { source: 'PATH' | 'devDependency'; version: string; probe: PeerProbe };
  input: InputFigures;
  /** Growth of the output files over the window, decimal Mbit/s, all processes. */
  outMbps: number;
  /** Whole phase: bytes served to the ffmpeg processes, bytes in their files after they stopped. */
  totals: PhaseTotals;
  cpu: ProcFigures;
  cpuSecondsPerGb: number;
  /** Peak of the summed VmRSS of all ffmpeg processes. */
  rssPeakMiB: number;
  rssPerRoomMiB: number;
  /** Summed proportional set size at the end (shared pages of the binary counted once overall). */
  pssMiB: number | null;
  pssPerRoomMiB: number | null;
  simPace: PaceFigures;
  simulatorCpuPct: number;
  machine: MachineFigures;
}

export interface RunFigures {
  rooms: number;
  bitrateKbps: number;
  /** What the simulator sent: clip name and its own bitrate (null = the committed small clip). */
  content: { name: string; kbps: number } | null;
  padWithFiller: boolean;
  /** Reasons not to trust the run's comparison (e.g. the recorders' Mbps in or out differ by more than 1 %). */
  flags: string[];
  seconds: number;
  warmupSeconds: number;
  liverec: LiverecFigures;
  ffmpeg: FfmpegFigures | null;
  /** cpuPerGb is null when either recorder's CPU in the window was too small for /proc to count (a flag says so). */
  /** liverec / ffmpeg; pssPerRoom counts ffmpeg's shared binary pages once overall, rssPerRoom once per process. */
  ratios: { cpuPerGb: number | null; rssPerRoom: number; pssPerRoom: number | null } | null;
  targets: TargetChecks;
}

export interface TargetChecks {
  cpuPerGbRatio: { target: string; value: number | null; pass: boolean | null };
  rssPerRoomMiB: { target: string; value: number; pass: boolean };
  pace: { target: string; value: number; pass: boolean };
  apiP99Ms: { target: string; value: number | null; pass: boolean | null };
}

export const TARGETS = { cpuPerGbRatio: 1.0, rssPerRoomMiB: 8, pace: 0.99, apiP99Ms: 5 } as const;

/** Allowed relative difference between the two recorders' Mbps in, and Mbps out, on content without filler. */
export const MBPS_TOLERANCE = 0.01;
/** The same for Mbps in over HLS, where windows are quantised by whole segments. */
export const HLS_MBPS_TOLERANCE = 0.05;

/** Flags a run whose recorders did not get, or did not write, the same stream (filler runs differ by design). */
export function comparisonFlags(l: LiverecFigures, f: FfmpegFigures | null, padWithFiller: boolean, protocol: BenchProtocol = 'flv'): string[] {
  if (!f) return [];
  const flags: string[] = [];
  const off = (a: number, b: number): number => Math.abs(a - b) / Math.max(1e-9, Math.abs(b));
  // Over HLS a room's bytes arrive a whole segment (1.92 s of the generated clips) at a time, which is 6 % of a 30-s
  // window for each room: window rates then differ by a few percent between recorders that got the same stream.
  const tolerance = protocol === 'flv' ? MBPS_TOLERANCE : HLS_MBPS_TOLERANCE;
  if (off(l.input.mbps, f.input.mbps) > tolerance) {
    flags.push(`Mbps in differ by ${(100 * off(l.input.mbps, f.input.mbps)).toFixed(1)} % (liverec ${l.input.mbps.toFixed(2)}, ffmpeg ${f.input.mbps.toFixed(2)})`);
  }
  // Window rates are quantised by whole GOPs (liverec writes a group at a time), so "out" compares what each
  // recorder kept of what it was sent over its whole phase.
  const lr = l.totals.outOverIn;
  const ff = f.totals.outOverIn;
  if (padWithFiller) flags.push('filler padding: liverec drops filler that ffmpeg writes, so per-GB-in figures favour liverec');
  // Over HLS, liverec keeps the segments as served and ffmpeg remuxes them (its own MP4 fragments or TS packets),
  // so bytes out differ by container overhead; Mbps in still has to match.
  else if (protocol === 'flv' && off(lr, ff) > MBPS_TOLERANCE) {
    flags.push(`bytes out / bytes in differ by ${(100 * off(lr, ff)).toFixed(1)} % (liverec ${lr.toFixed(4)}, ffmpeg ${ff.toFixed(4)})`);
  }
  // A peer whose files are broken did less work than a correct recorder (and gave users nothing usable).
  if (f.peer.probe.unclean > 0) {
    flags.push(`${f.peer.probe.unclean} of ${f.peer.probe.files} ffmpeg files do not probe clean (${f.peer.version}, from ${f.peer.source}): ${f.peer.probe.firstProblem}`);
  }
  if (protocol !== 'flv' && f.peer.source === 'devDependency') {
    flags.push('HLS peer is the 2018 ffmpeg devDependency, which writes broken files from HLS fMP4: put a current ffmpeg on PATH');
  }
  const unmeasured = [['liverec', l.cpuSecondsPerGb], ['ffmpeg', f.cpuSecondsPerGb]].filter(([, v]) => !((v as number) > 0)).map(([n]) => n);
  if (unmeasured.length) {
    flags.push(`CPU of ${unmeasured.join(' and ')} in the window was below /proc's 10-ms tick: no CPU ratio (use a longer --seconds or more rooms)`);
  }
  return flags;
}

/** liverec's CPU per GB over ffmpeg's, or null when either was not measurable (zero ticks in a short window). */
export function cpuRatio(l: LiverecFigures, f: FfmpegFigures): number | null {
  const r = l.cpuSecondsPerGb / f.cpuSecondsPerGb;
  return l.cpuSecondsPerGb > 0 && f.cpuSecondsPerGb > 0 && Number.isFinite(r) ? r : null;
}

export function checkTargets(l: LiverecFigures, ratios: RunFigures['ratios']): TargetChecks {
  const cpu = ratios?.cpuPerGb ?? null;
  const p99 = l.api ? l.api.p99Ms : null;
  return {
    cpuPerGbRatio: { target: `<= ${TARGETS.cpuPerGbRatio}`, value: cpu, pass: cpu === null ? null : cpu <= TARGETS.cpuPerGbRatio },
    rssPerRoomMiB: { target: `<= ${TARGETS.rssPerRoomMiB}`, value: l.rssPerRoomMiB, pass: l.rssPerRoomMiB <= TARGETS.rssPerRoomMiB },
    pace: { target: `>= ${TARGETS.pace}`, value: l.pace.lowest, pass: l.pace.lowest >= TARGETS.pace },
    apiP99Ms: { target: `<= ${TARGETS.apiP99Ms}`, value: p99, pass: p99 === null ? null : p99 <= TARGETS.apiP99Ms && (l.api?.httpErrors ?? 0) + (l.api?.netErrors ?? 0) === 0 },
  };
}
