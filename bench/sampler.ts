// Samples the measured processes, the simulator and (for liverec) the recorder's API once a second, on a fixed schedule.
import { performance } from 'node:perf_hooks';
import { type ProcSample, sampleProcs } from './proc.js';
import { counter, endCounter } from './progress.js';
import type { ApiRoom, RecorderProcess } from './recorder-process.js';
import type { SimRoomCounters, SimulatorProcess } from './simulator-process.js';

export interface TimedSample<T> {
  /** performance.now() midway between asking and the answer. */
  t: number;
  value: T;
}

export interface Samples {
  procs: ProcSample[];
  sim: ProcSample[];
  /** The API load process (empty when there is none). */
  load: ProcSample[];
  simRooms: TimedSample<Map<number, SimRoomCounters>>[];
  apiRooms: TimedSample<ApiRoom[]>[];
  /** Samples that could not be taken (a slow or failed GET): they are skipped, not invented. */
  missed: { sim: number; api: number };
}

export interface SamplerTarget {
  label: string;
  pids: () => readonly number[];
  /** The API load process, when one runs (its CPU is part of the machine's load, not the recorder's). */
  loadPid?: number;
  sim: SimulatorProcess;
  recorder?: RecorderProcess;
  /** Called each second; throw to abort (e.g. a measured process died). */
  check?: () => void;
}

async function timed<T>(fetch: () => Promise<T>): Promise<TimedSample<T>> {
  const a = performance.now();
  const value = await fetch();
  return { t: (a + performance.now()) / 2, value };
}

/** Takes `seconds + 1` samples, one per second from now; the first is the window's start, the last its end. */
export async function sample(target: SamplerTarget, seconds: number): Promise<Samples> {
  const s: Samples = { procs: [], sim: [], load: [], simRooms: [], apiRooms: [], missed: { sim: 0, api: 0 } };
  const start = performance.now();
  for (let k = 0; k <= seconds; k++) {
    const due = start + k * 1000;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    target.check?.();
    const now = performance.now();
    s.procs.push(sampleProcs(target.pids(), now));
    s.sim.push(sampleProcs([target.sim.pid], now));
    if (target.loadPid) s.load.push(sampleProcs([target.loadPid], now));
    // Both GETs in parallel and bounded by the tick, so a slow answer delays nothing but itself.
    const [simR, apiR] = await Promise.allSettled([
      timed(() => target.sim.counters()),
      target.recorder ? timed(() => target.recorder!.rooms()) : Promise.resolve(null),
    ]);
    if (simR.status === 'fulfilled') s.simRooms.push(simR.value);
    else s.missed.sim++;
    if (apiR.status === 'fulfilled' && apiR.value) s.apiRooms.push(apiR.value);
    else if (target.recorder) s.missed.api++;
    counter(`${target.label}: ${k}/${seconds} s`);
  }
  endCounter();
  return s;
}

/** Two back-to-back windows as one (pace and durationRatio look at the whole recording time). */
export function concat(a: Samples, b: Samples): Samples {
  return {
    procs: [...a.procs, ...b.procs], sim: [...a.sim, ...b.sim], load: [...a.load, ...b.load], simRooms: [...a.simRooms, ...b.simRooms], apiRooms: [...a.apiRooms, ...b.apiRooms],
    missed: { sim: a.missed.sim + b.missed.sim, api: a.missed.api + b.missed.api },
  };
}
