// Phase 1: liverec records every room; a recording-only window, then a window with the API load process running.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { packageRoot } from '../src/paths.js';
import { defaultMaxHosts, MAX_ROOMS_PER_THREAD, ROOMS_BEFORE_NEXT_THREAD } from '../src/rooms/placement.js';
import { OutputTail } from './child-output.js';
import { removeDir, stopChild, tempDir, track } from './cleanup.js';
import type { ApiLoadFigures, LiverecFigures } from './figures.js';
import { waitFor } from './http-json.js';
import { brecRatio, cpuSecondsPerGb, inputFigures, machineFigures, procFigures, recorderIo } from './metrics.js';
import { outputBytes, outputSizes, phaseTotals } from './output-bytes.js';
import { paceOf, recorderSeries, simSeries } from './pace.js';
import { pssKiB } from './proc.js';
import { counter, phase } from './progress.js';
import { startRecorder } from './recorder-process.js';
import { concat, sample } from './sampler.js';
import { servedBytes, type SimulatorProcess } from './simulator-process.js';

export interface PhaseOptions {
  seconds: number;
  warmupSeconds: number;
  /** null = liverec's default placement (no flag). */
  roomsPerWorker: number | null;
  apiRps: number;
  /** Fraction of the load that is GET /api/room. */
  apiListShare?: number;
  /** Rooms offer only HLS: pace is then a slope (see pace.ts). */
  hls: boolean;
  /** Awaited after the warm-up, right before the recording-only window (`--concurrent` aligns both windows). */
  beforeWindow?: () => Promise<void>;
}
/** The API load starts this long before its measured window: the first requests compile the route's code. */
const API_WARMUP_S = 2;
const apiLoadScript = join(packageRoot, 'dist', 'bench', 'api-load.js');

function startApiLoad(apiUrl: string, roomIds: number[], rps: number, seconds: number, startAt: number, listShare = 0): { pid: number; result: Promise<ApiLoadFigures>; stop: () => Promise<void> } {
  const args = ['--url', apiUrl, '--ids', roomIds.join(','), '--rps', String(rps), '--seconds', String(seconds), '--warmup', String(API_WARMUP_S), '--start-at', String(startAt), '--list-share', String(listShare)];
  const child = track(spawn(process.execPath, [apiLoadScript, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  }));
  const err = new OutputTail(child.stderr);
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const result = new Promise<ApiLoadFigures>((resolve, reject) => {
    child.once('exit', (code) => {
      try {
        resolve(JSON.parse(out) as ApiLoadFigures);
      } catch {
        reject(new Error(`api-load exited (code ${code}) without a result: ${err.tail}`));
      }
    });
  });
  // Awaited only on the success path; an error elsewhere must not turn its failure into an unhandled rejection.
  result.catch(() => undefined);
  return { pid: child.pid!, result, stop: () => stopChild(child, 15_000) };
}

/** Room threads the placement rules give for `rooms` rooms added one by one (used only if /metrics cannot be read). */
function expectedThreads(rooms: number, roomsPerWorker: number | null): number {
  if (roomsPerWorker !== null) return Math.ceil(rooms / roomsPerWorker);
  return Math.max(Math.min(Math.ceil(rooms / ROOMS_BEFORE_NEXT_THREAD), defaultMaxHosts()), Math.ceil(rooms / MAX_ROOMS_PER_THREAD));
}

/** The recorder's own count of room threads (`liverec_worker_threads` on /metrics), or null. */
async function roomThreads(apiUrl: string): Promise<number | null> {
  try {
    const text = await (await fetch(`${apiUrl}/metrics`)).text();
    const m = /^liverec_worker_threads (\d+)/m.exec(text);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

export async function runLiverecPhase(sim: SimulatorProcess, o: PhaseOptions): Promise<LiverecFigures> {
  const ids = sim.roomIds;
  const outDir = tempDir('liverec-bench-rec-');
  const t0 = performance.now();
  const flag = o.roomsPerWorker === null ? 'default' : `--rooms-per-worker ${o.roomsPerWorker}`;
  phase(`liverec: starting (${ids.length} rooms, ${flag} placement, API load ${o.apiRps} req/s)`);
  const servedBefore = await servedBytes(sim);
  const rec = await startRecorder(sim.url, ids, outDir, o.roomsPerWorker);
  let workers = expectedThreads(ids.length, o.roomsPerWorker);
  let placement = `${flag}: ${workers} thread(s)`;
  let load: ReturnType<typeof startApiLoad> | null = null;
  try {
    // Every live-API call goes through the default budget (ApiBudgetPerMinute 50: 1.2 s apart after a burst of 5) and
    // a starting room makes 3-4 of them, so 50 rooms take about 3-4 minutes to start, as they would for a user; on a
    // loaded machine, connect timeouts and retries (TimingStreamRetry) stretch it further.
    let shown = -1;
    let shownAt = 0;
    await rec.waitAllRecording(ids, 60_000 + ids.length * 6000, (n) => {
      counter(`liverec: ${n}/${ids.length} rooms recording`);
      if (n !== shown && (n === ids.length || performance.now() - shownAt > 5000)) {
        phase(`liverec: ${n}/${ids.length} rooms recording`);
        shown = n;
        shownAt = performance.now();
      }
    });
    const startupS = (performance.now() - t0) / 1000;
    workers = (await roomThreads(rec.apiUrl)) ?? expectedThreads(ids.length, o.roomsPerWorker);
    placement = `${flag}: ${workers} thread(s)`;
    phase(`liverec: all rooms recording after ${startupS.toFixed(1)} s on ${workers} room thread(s); warm-up ${o.warmupSeconds} s`);
    await new Promise((r) => setTimeout(r, o.warmupSeconds * 1000));
    await o.beforeWindow?.();
    const check = (): void => {
      if (rec.exited()) throw new Error(`liverec exited during the measurement: ${rec.errors()}`);
    };
    const target = { label: 'liverec, recording only', pids: () => [rec.pid], sim, recorder: rec, check };
    phase(`liverec: recording-only window, ${o.seconds} s`);
    load = o.apiRps > 0 ? startApiLoad(rec.apiUrl, ids, o.apiRps, o.seconds, Date.now() + o.seconds * 1000 + 300, o.apiListShare) : null;
    const before = { t: performance.now(), bytes: outputBytes(outDir) };
    const quiet = await sample(target, o.seconds);
    const outMbps = ((outputBytes(outDir) - before.bytes) * 8) / ((performance.now() - before.t) / 1000) / 1e6;
    let loaded = null;
    let api: ApiLoadFigures | null = null;
    if (load) {
      phase(`liverec: ${o.apiListShare ? `GET /api/room (${Math.round(o.apiListShare * 100)} %) and ` : ''}GET /api/room/{id} at ${o.apiRps} req/s: ${API_WARMUP_S} s warm-up, then measured`);
      await new Promise((r) => setTimeout(r, API_WARMUP_S * 1000 + 300));
      phase(`liverec: window with GET /api/room/{id} at ${o.apiRps} req/s from a separate process, ${o.seconds} s`);
      loaded = await sample({ ...target, loadPid: load.pid, label: `liverec, API load ${o.apiRps} req/s` }, o.seconds);
      api = await Promise.race([load.result, new Promise<never>((_, rej) => setTimeout(() => rej(new Error('api-load did not finish')), 20_000))]);
    }
    const pss = pssKiB(rec.pid);
    const all = loaded ? concat(quiet, loaded) : quiet;
    const cpu = procFigures(quiet.procs);
    const input = inputFigures(quiet.simRooms, ids);
    const rssPeakMiB = Math.max(...all.procs.map((p) => p.rssKiB / 1024));
    phase('liverec: stopping');
    await rec.stop();
    // Every stream must be closed before ffmpeg takes over, or the simulator's byte counters would mix both.
    await waitFor('the simulator to see every liverec stream closed', 20_000, async () => {
      const c = await sim.counters();
      return [...c.values()].every((r) => r.openStreams === 0) ? true : undefined;
    });
    const totals = phaseTotals((await servedBytes(sim)) - servedBefore, outputSizes(outDir));
    return {
      roomsPerWorker: o.roomsPerWorker, workers, placement, startupS, input, outMbps, totals, cpu, cpuSecondsPerGb: cpuSecondsPerGb(cpu, input),
      cpuUnderApiLoad: loaded ? procFigures(loaded.procs) : null,
      rssPeakMiB, rssPerRoomMiB: rssPeakMiB / ids.length, pssMiB: pss === null ? null : pss / 1024,
      pace: paceOf(recorderSeries(all.apiRooms), o.hls),
      paceByWindow: {
        recordingOnly: paceOf(recorderSeries(quiet.apiRooms), o.hls),
        underApiLoad: loaded ? paceOf(recorderSeries(loaded.apiRooms), o.hls) : null,
      },
      simPace: paceOf(simSeries(all.simRooms, ids), o.hls),
      brecDurationRatio: brecRatio(all.apiRooms),
      io: recorderIo(all.apiRooms),
      api,
      apiLoadProcessCpuPct: loaded && loaded.load.length > 1 ? procFigures(loaded.load).cpuPct : null,
      simulatorCpuPct: procFigures(all.sim).cpuPct,
      machine: {
        recordingOnly: machineFigures([quiet.procs, quiet.sim]),
        underApiLoad: loaded ? machineFigures([loaded.procs, loaded.sim, loaded.load]) : null,
      },
      missedSamples: all.missed,
    };
  } finally {
    await load?.stop();
    await rec.stop();
    removeDir(outDir);
  }
}
