// Gap filling's cost when nothing breaks: the recorder's CPU with RecordFillGapsFromHls on and off, N FLV rooms, no outage.
// Run: npx tsc -p tsconfig.json && node scripts/bundle-cli.mjs && node dist/bench/gap-fill.js [--rooms 50] [--seconds 60] [--rounds 2]
// The simulator runs in its own process; the recorder (main thread + room threads) in this one, so
// process.cpuUsage() is the recorder's alone. Modes alternate (off, on, off, on, …) so drift hits both.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigStore } from '../src/config/store.js';
import { startService } from '../src/service.js';
import { startSimulator } from './simulator-process.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const rooms = Number(arg('rooms', '50'));
const seconds = Number(arg('seconds', '60'));
const rounds = Number(arg('rounds', '2'));
const bitrate = Number(arg('bitrate-kbps', '2000'));
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const cpuSeconds = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

interface Run {
  fill: boolean;
  /** CPU seconds from the start until every room recorded 3 s (session starts, late-start attempts included). */
  startCpu: number;
  /** CPU seconds per wall second in the steady window. */
  cores: number;
  /** Media seconds recorded per wall second, summed over rooms, in the window. */
  mediaRate: number;
}

process.env.LIVEREC_LOG_LEVEL ??= 'error';
const sim = await startSimulator(rooms, bitrate, { clip: null, padWithFiller: false, formats: ['flv', 'fmp4'] });

async function once(fill: boolean): Promise<Run> {
  const workDir = mkdtempSync(join(tmpdir(), 'liverec-gapfill-bench-'));
  const config = new ConfigStore();
  Object.assign(config.global, { LiveApiHost: sim.url, RecordFillGapsFromHls: fill });
  for (const id of sim.roomIds) config.addRoom(id, true);
  const c0 = cpuSeconds();
  const service = await startService({ workDir, config });
  try {
    const media = (id: number): number => service.recorder.findRoom(id)?.recordingStats.sessionMaxTimestamp ?? 0;
    const until = Date.now() + 120_000;
    while (Date.now() < until && sim.roomIds.some((id) => media(id) < 3000)) await sleep(500);
    const startCpu = cpuSeconds() - c0;
    await sleep(5000);
    const m0 = sim.roomIds.reduce((n, id) => n + media(id), 0);
    const c1 = cpuSeconds();
    const t1 = Date.now();
    await sleep(seconds * 1000);
    const wall = (Date.now() - t1) / 1000;
    const m1 = sim.roomIds.reduce((n, id) => n + media(id), 0);
    return { fill, startCpu, cores: (cpuSeconds() - c1) / wall, mediaRate: (m1 - m0) / 1000 / wall };
  } finally {
    await service.close();
    rmSync(workDir, { recursive: true, force: true });
  }
}

const runs: Run[] = [];
try {
  for (let r = 0; r < rounds; r++) {
    for (const fill of [false, true]) {
      const run = await once(fill);
      runs.push(run);
      console.log(`round ${r + 1} fill ${fill ? 'on ' : 'off'}: ${run.cores.toFixed(3)} cores steady, ${run.startCpu.toFixed(2)} CPU s to start, media ${run.mediaRate.toFixed(1)} s/s`);
    }
  }
} finally {
  await sim.stop();
}
const mean = (fill: boolean, pick: (r: Run) => number): number => {
  const of = runs.filter((r) => r.fill === fill);
  return of.reduce((n, r) => n + pick(r), 0) / of.length;
};
const on = mean(true, (r) => r.cores);
const off = mean(false, (r) => r.cores);
console.log(`${rooms} rooms, ${seconds} s windows, ${rounds} round(s): fill on ${on.toFixed(3)} cores, off ${off.toFixed(3)} cores, on/off ${(on / off).toFixed(3)}`);
console.log(`start-up CPU (sessions, late-start attempts): on ${mean(true, (r) => r.startCpu).toFixed(2)} s, off ${mean(false, (r) => r.startCpu).toFixed(2)} s`);
