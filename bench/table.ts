// The one results table (rows per room count: liverec, ffmpeg, their ratio; then the targets) and its notes.
import type { RunFigures } from './figures.js';
import { TARGETS } from './figures.js';

const f = (v: number | null | undefined, d: number): string => (v === null || v === undefined || !Number.isFinite(v) ? '-' : v.toFixed(d));
const mark = (pass: boolean | null): string => (pass === null ? '' : pass ? ' ✓' : ' ✗');

const HEAD = ['rooms', 'recorder (threads)', 'Mbps in', 'Mbps out', 'CPU %', 'CPU % +API', 'CPU-s/GB', 'RSS MiB', 'MiB/room', 'PSS MiB/room', 'pace min', 'brec ratio min', 'API p50/p99 ms (err)', 'wake-up p99 ms', 'sim CPU %', 'other CPU %'];

function rowsOf(r: RunFigures): string[][] {
  const l = r.liverec;
  const t = r.targets;
  const api = l.api ? `${f(l.api.p50Ms, 2)} / ${f(l.api.p99Ms, 2)}${mark(t.apiP99Ms.pass)} (${l.api.httpErrors + l.api.netErrors + l.api.unanswered})` : '-';
  const rows = [[
    String(r.rooms), `liverec (${l.workers} thr${l.roomsPerWorker === null ? '' : `, ${l.roomsPerWorker}/thr`})${r.flags.length ? ' !' : ''}`, f(l.input.mbps, 2), f(l.outMbps, 2), f(l.cpu.cpuPct, 1), f(l.cpuUnderApiLoad?.cpuPct, 1), f(l.cpuSecondsPerGb, 2),
    f(l.rssPeakMiB, 0), f(l.rssPerRoomMiB, 2) + mark(t.rssPerRoomMiB.pass), f(l.pssMiB === null ? undefined : l.pssMiB / r.rooms, 2), f(l.pace.lowest, 3) + mark(t.pace.pass), f(l.brecDurationRatio.lowest, 3), api, f(l.api?.wakeup?.p99Ms, 2), f(l.simulatorCpuPct, 0), f(l.machine.recordingOnly.othersPct, 0),
  ]];
  if (r.ffmpeg) {
    const m = r.ffmpeg;
    rows.push([String(r.rooms), 'ffmpeg -c copy', f(m.input.mbps, 2), f(m.outMbps, 2), f(m.cpu.cpuPct, 1), '', f(m.cpuSecondsPerGb, 2), f(m.rssPeakMiB, 0), f(m.rssPerRoomMiB, 2), f(m.pssPerRoomMiB ?? undefined, 2), `${f(m.simPace.lowest, 3)}*`, '', '', '', f(m.simulatorCpuPct, 0), f(m.machine.othersPct, 0)]);
  }
  if (r.ratios) {
    rows.push([String(r.rooms), 'liverec ÷ ffmpeg', '', '', '', '', f(r.ratios.cpuPerGb, 2) + mark(t.cpuPerGbRatio.pass), '', f(r.ratios.rssPerRoom, 2), f(r.ratios.pssPerRoom ?? undefined, 2), '', '', '', '', '', '']);
  }
  return rows;
}

const TARGET_ROW = ['', 'targets', '', '', '', '', `÷ <= ${TARGETS.cpuPerGbRatio}`, '', `<= ${TARGETS.rssPerRoomMiB}`, '', `>= ${TARGETS.pace}`, '', `p99 <= ${TARGETS.apiP99Ms}`, '', '', ''];

export function renderTable(runs: RunFigures[]): string {
  const rows = [HEAD, ...runs.flatMap(rowsOf), TARGET_ROW];
  const width = HEAD.map((_, c) => Math.max(...rows.map((r) => [...(r[c] ?? '')].length)));
  const line = (r: string[]): string => r.map((cell, c) => (c === 1 ? cell.padEnd(width[c]!) : cell.padStart(width[c]!))).join('  ').trimEnd();
  const sep = width.map((w) => '-'.repeat(w)).join('  ');
  return [line(HEAD), sep, ...rows.slice(1, -1).map(line), sep, line(TARGET_ROW)].join('\n');
}

/** What every column means; printed under the table and stored in the results JSON. */
export const DEFINITIONS: Record<string, string> = {
  'Mbps in': 'decimal Mbit/s the simulator served to the recorder\'s rooms in the window (its bytesServed counters, FLV or HLS segments). By default both recorders run at once, each on N rooms of its own that send the same content; with --sequential or --ffmpeg-first, one after the other on the same N rooms. By default the content is a generated 1080p25 H.264 clip with full-frame entropy at the bitrate, with no filler (or --clip FILE.flv); with --protocol hls-fmp4 or hls-ts, the same clip cut into segments at every keyframe.',
  'Mbps out': 'decimal Mbit/s written to disk over the same window, from the growth of the output files (both recorders measured the same way). The run is flagged (a "!" after liverec, and FLAGGED lines) when the two recorders\' Mbps in differ by more than 1 %, or, on content without filler, when their bytes out / bytes in over each whole phase differ by more than 1 % (totals in the JSON; window rates are quantised by GOP-sized writes). Bytes out there are media bytes: each file less its FLV header and onMetaData tag, because liverec\'s brec-style onMetaData reserves about 113 KB per file for its keyframe index. With --pad-with-filler liverec drops the filler that ffmpeg -c copy writes, which flatters liverec. Over HLS, Mbps in may differ by 5 % (a room\'s bytes arrive a whole segment at a time), and the bytes-out rule is off: liverec keeps the segments as served, ffmpeg remuxes them, and the containers differ in overhead.',
  'CPU %': 'user+system CPU of the recorder process (all threads; for ffmpeg the sum over its processes) from /proc, in percent of ONE core, over the recording-only window.',
  'CPU % +API': 'the same for liverec during the following window of equal length while a separate process sends GET /api/room/{id} at the API rate (serving the API is part of this figure).',
  'CPU-s/GB': 'CPU seconds per decimal GB of input, from the recording-only window.',
  'PSS MiB/room': 'proportional set size at the end of the window (/proc/<pid>/smaps_rollup), per room: pages shared between processes are split between them, so ffmpeg\'s binary counts once overall, not once per process as in RSS.',
  'RSS MiB': 'peak VmRSS sampled once a second (for ffmpeg: peak of the sum over its processes; shared pages of the binary are counted once per process there, see pssMiB in the JSON).',
  'pace min': 'liverec: for every room, media ms recorded (sessionMaxTimestamp delta) / wall ms (sessionDuration delta of the same stats snapshots) over sliding 10-s windows covering both windows; the lowest over all rooms and windows (per window in the JSON: paceByWindow). 1.0 = keeps up with real time. Over HLS, media advances a whole segment at a time, so the figure is instead each room\'s least-squares slope of media ms over wall ms across the run (windows in the JSON is then the number of rooms). *ffmpeg: the same ratio for the media the simulator served (mediaMsServed / wall), which falls when a client stops reading (the simulator holds back once 2 MB are queued).',
  'brec ratio min': "lowest numeric brec durationRatio seen in the API samples after the warm-up. brec's per-group ratio is (last - first tag timestamp) of one GOP / wall time since the previous GOP, so it sits about one frame per GOP below 1 by definition (e.g. 0.958 for 24-frame GOPs).",
  'API p50/p99 ms (err)': 'latency of GET /api/room/{id} (random room) from a separate process at a constant open-loop rate over keep-alive, measured from dispatch to the end of the body, after a 2-s warm-up at the same rate (its figures are in the JSON as api.warmup); err = HTTP errors + network errors + unanswered.',
  'wake-up p99 ms': 'the machine\'s floor for that latency: how late (beyond 1 ms) an idle thread in the load process woke from 1-ms sleeps during the measured API window (p99; p50, p99.9 and max in the JSON as api.wakeup). Each request waits for two wake-ups (server and client), so an API p99 near twice this is the scheduler, not the API.',
  'sim CPU %': 'CPU of the simulator process (same machine, informational): on a small machine it competes with the recorder for the cores.',
  'other CPU %': 'CPU of every other process on the machine in the recording-only window (all of /proc minus the recorder, the simulator and the benchmark): other work competing for the cores (when both recorders run at once, each counts the other here). High values make every figure noisier.',
};

export function renderNotes(): string {
  return Object.entries(DEFINITIONS).map(([k, v]) => `  ${k}: ${v}`).join('\n');
}
