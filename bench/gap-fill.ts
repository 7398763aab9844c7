// Gap filling's cost when nothing breaks: the recorder's CPU with RecordFillGapsFromHls on and off, N FLV rooms, no outage.
// Run: npx tsc -p tsconfig.json && node scripts/bundle-cli.mjs && node dist/bench/gap-fill.js [--rooms 50] [--seconds 60] [--rounds 2] [--settle 5]
// The simulator runs in its own process; the recorder (main thread + room threads) in this one, so
// process.cpuUsage() is the recorder's alone. Modes alternate (off, on, off, on, …) so drift hits both.
// The steady window opens only once every room has recorded a few seconds (session starts queue behind the API
// budget, so a window opened earlier would compare runs with different numbers of rooms recording), and CPU is
// also given per media second recorded, so two runs that recorded different amounts still compare.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getProcessLimiter } from '../src/bilibili/api-limiter.js';
import { ConfigStore } from '../src/config/store.js';
import { startService } from '../src/service.js';
import { getJson } from './http-json.js';
import { startSimulator } from './simulator-process.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const rooms = Number(arg('rooms', '50'));
const seconds = Number(arg('seconds', '60'));
const rounds = Number(arg('rounds', '2'));
const bitrate = Number(arg('bitrate-kbps', '2000'));
/** Longest wait for every room to record (the default API budget of 50 calls a minute paces 50 session starts). */
const startLimitS = Number(arg('start-limit', '240'));
/** Seconds between the last room's start and the window (the start's garbage is collected meanwhile). */
const settleS = Number(arg('settle', '5'));
const modes = arg('modes', 'off,on').split(',').map((m) => m === 'on');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const cpuSeconds = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

interface Run {
  fill: boolean;
  /** Wall seconds until every room recorded 3 s of media, and how many did by then. */
  startWall: number;
  started: number;
  /** CPU seconds from the start until then (session starts, late-start attempts included), and API calls made. */
  startCpu: number;
  startCalls: number;
  /** CPU seconds per wall second in the steady window. */
  cores: number;
  /** Media seconds recorded per wall second, summed over rooms, in the window. */
  mediaRate: number;
  /** CPU ms per media second recorded, in the window and over the whole run (start included). */
  cpuPerMedia: number;
  cpuPerMediaAll: number;
  /** HLS requests (playlists and segments) and FLV connections the simulator saw, in the window and in all. */
  hlsInWindow: number;
  hlsAll: number;
  flvInWindow: number;
}

interface SimCounters { counters: { hlsPlaylistRequests: number; hlsSegmentRequests: number; streamConnections: number } }

/** HLS requests and FLV connections so far, over all rooms (the simulator counts from its start). */
async function served(): Promise<{ hls: number; flv: number }> {
  const list = await getJson<SimCounters[]>(`${sim.url}/_sim/rooms`);
  return list.reduce((n, r) => ({ hls: n.hls + r.counters.hlsPlaylistRequests + r.counters.hlsSegmentRequests, flv: n.flv + r.counters.streamConnections }), { hls: 0, flv: 0 });
}

process.env.LIVEREC_LOG_LEVEL ??= 'error';
const sim = await startSimulator(rooms, bitrate, { clip: null, padWithFiller: false, formats: ['flv', 'fmp4'] });

async function once(fill: boolean): Promise<Run> {
  const workDir = mkdtempSync(join(tmpdir(), 'liverec-gapfill-bench-'));
  const config = new ConfigStore();
  Object.assign(config.global, { LiveApiHost: sim.url, RecordFillGapsFromHls: fill });
  for (const id of sim.roomIds) config.addRoom(id, true);
  const s0 = await served();
  const c0 = cpuSeconds();
  const t0 = Date.now();
  const service = await startService({ workDir, config });
  const calls0 = getProcessLimiter().usage().calls;
  try {
    const media = (id: number): number => service.recorder.findRoom(id)?.recordingStats.sessionMaxTimestamp ?? 0;
    const total = (): number => sim.roomIds.reduce((n, id) => n + media(id), 0);
    const until = Date.now() + startLimitS * 1000;
    while (Date.now() < until && sim.roomIds.some((id) => media(id) < 3000)) await sleep(250);
    const startCpu = cpuSeconds() - c0;
    const startWall = (Date.now() - t0) / 1000;
    const started = sim.roomIds.filter((id) => media(id) >= 3000).length;
    const startCalls = getProcessLimiter().usage().calls - calls0;
    await sleep(settleS * 1000);
    const s1 = await served();
    const m0 = total();
    const c1 = cpuSeconds();
    const t1 = Date.now();
    await sleep(seconds * 1000);
    const wall = (Date.now() - t1) / 1000;
    const m1 = total();
    const cpu = cpuSeconds() - c1;
    const s2 = await served();
    return {
      hlsInWindow: s2.hls - s1.hls, hlsAll: s2.hls - s0.hls, flvInWindow: s2.flv - s1.flv,
      fill, startWall, started, startCpu, startCalls, cores: cpu / wall, mediaRate: (m1 - m0) / 1000 / wall,
      cpuPerMedia: (cpu * 1000) / ((m1 - m0) / 1000), cpuPerMediaAll: ((cpuSeconds() - c0) * 1000) / (m1 / 1000),
    };
  } finally {
    await service.close();
    rmSync(workDir, { recursive: true, force: true });
  }
}

const runs: Run[] = [];
try {
  for (let r = 0; r < rounds; r++) {
    for (const fill of modes) {
      const run = await once(fill);
      runs.push(run);
      console.log(`round ${r + 1} fill ${fill ? 'on ' : 'off'}: ${run.started}/${rooms} rooms recording after ${run.startWall.toFixed(0)} s `
        + `(${run.startCpu.toFixed(2)} CPU s, ${run.startCalls} API calls); steady ${run.cores.toFixed(3)} cores, media ${run.mediaRate.toFixed(1)} s/s, `
        + `${run.cpuPerMedia.toFixed(2)} CPU ms per media s (${run.cpuPerMediaAll.toFixed(2)} over the whole run); `
        + `HLS requests ${run.hlsInWindow} in the window (${run.hlsAll} in all), FLV connections opened in the window ${run.flvInWindow}`);
    }
  }
} finally {
  await sim.stop();
}
const mean = (fill: boolean, pick: (r: Run) => number): number => {
  const of = runs.filter((r) => r.fill === fill);
  return of.reduce((n, r) => n + pick(r), 0) / of.length;
};
if (modes.includes(true) && modes.includes(false)) {
  const ratio = (pick: (r: Run) => number): string => (mean(true, pick) / mean(false, pick)).toFixed(3);
  console.log(`${rooms} rooms, ${seconds} s windows, ${rounds} round(s): steady fill on ${mean(true, (r) => r.cores).toFixed(3)} cores, off ${mean(false, (r) => r.cores).toFixed(3)}, on/off ${ratio((r) => r.cores)}`);
  console.log(`per media second: on ${mean(true, (r) => r.cpuPerMedia).toFixed(2)} CPU ms, off ${mean(false, (r) => r.cpuPerMedia).toFixed(2)}, on/off ${ratio((r) => r.cpuPerMedia)}; `
    + `whole run (start included) on/off ${ratio((r) => r.cpuPerMediaAll)}`);
  console.log(`start: on ${mean(true, (r) => r.startWall).toFixed(0)} s, ${mean(true, (r) => r.startCpu).toFixed(2)} CPU s, ${mean(true, (r) => r.startCalls).toFixed(0)} API calls; `
    + `off ${mean(false, (r) => r.startWall).toFixed(0)} s, ${mean(false, (r) => r.startCpu).toFixed(2)} CPU s, ${mean(false, (r) => r.startCalls).toFixed(0)} API calls`);
}
