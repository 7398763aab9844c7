// The figures of one benchmark run (one room count): the shape of the table rows and of the results JSON.
import type { LatencySummary } from './latency.js';
import type { BrecRatioFigures, InputFigures, MachineFigures, ProcFigures, RecorderIoFigures } from './metrics.js';
import type { PaceFigures } from './pace.js';

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
}

export interface LiverecFigures {
  roomsPerWorker: number;
  workers: number;
  /** Seconds from start until every room had recorded media. */
  startupS: number;
  input: InputFigures;
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
  input: InputFigures;
  /** Growth of the output files over the window, decimal Mbit/s, all processes. */
  outMbps: number;
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
  seconds: number;
  warmupSeconds: number;
  liverec: LiverecFigures;
  ffmpeg: FfmpegFigures | null;
  ratios: { cpuPerGb: number; rssPerRoom: number } | null;
  targets: TargetChecks;
}

export interface TargetChecks {
  cpuPerGbRatio: { target: string; value: number | null; pass: boolean | null };
  rssPerRoomMiB: { target: string; value: number; pass: boolean };
  pace: { target: string; value: number; pass: boolean };
  apiP99Ms: { target: string; value: number | null; pass: boolean | null };
}

export const TARGETS = { cpuPerGbRatio: 0.5, rssPerRoomMiB: 10, pace: 0.99, apiP99Ms: 5 } as const;

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
