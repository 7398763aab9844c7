// HLS pace: N HLS rooms (fMP4 or TS) recorded at once in this process; lowest media-per-wall ratio, CPU and RSS.
// Run: npm run build && node dist/bench/hls-pace.js [--rooms 20] [--format fmp4|ts] [--seconds 60]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigStore } from '../src/config/store.js';
import { startService } from '../src/service.js';
import { Simulator } from '../src/simulator/index.js';
import { lowestPace } from './pace.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const rooms = Number(arg('rooms', '20'));
const format = arg('format', 'fmp4') as 'fmp4' | 'ts';
const seconds = Number(arg('seconds', '60'));
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const sim = new Simulator();
const running = await sim.start();
const ids = Array.from({ length: rooms }, (_, i) => 28_000 + i);
for (const roomId of ids) sim.createRoom({ roomId, live: true, formats: [format] });
const workDir = mkdtempSync(join(tmpdir(), 'liverec-hls-bench-'));
const config = new ConfigStore();
Object.assign(config.global, { LiveApiHost: running.url });
for (const id of ids) config.addRoom(id, true);
process.env.LIVEREC_LOG_LEVEL ??= 'error';
const service = await startService({ workDir, config });
try {
  const media = (id: number): number => service.recorder.findRoom(id)?.recordingStats.sessionMaxTimestamp ?? 0;
  const warmEnd = Date.now() + 30_000;
  while (Date.now() < warmEnd && ids.some((id) => media(id) < 3000)) await sleep(500);
  const series = new Map(ids.map((id) => [id, [] as { x: number; y: number }[]]));
  const cpu0 = process.cpuUsage();
  const t0 = Date.now();
  while (Date.now() - t0 < seconds * 1000) {
    for (const id of ids) series.get(id)!.push({ x: Date.now(), y: media(id) });
    await sleep(1000);
  }
  const cpu = process.cpuUsage(cpu0);
  const pace = lowestPace(series, 10_000);
  const wall = (Date.now() - t0) / 1000;
  const served = ids.reduce((n, id) => n + sim.room(id).counters.hlsSegmentsServed, 0);
  console.log(JSON.stringify({
    rooms, format, seconds: Math.round(wall),
    lowestWholePace: Number(pace.lowestWhole.toFixed(3)),
    lowest10sPace: Number(pace.lowest.toFixed(3)),
    cpuPercentOfOneCore: Number((((cpu.user + cpu.system) / 1e6 / wall) * 100).toFixed(1)),
    rssMB: Math.round(process.memoryUsage().rss / 1048576),
    segmentsServed: served,
    note: 'simulator, recorder and workers share this process; media advances per 0.96 s segment, so 10 s windows are quantised by ±10 %',
  }));
} finally {
  await service.close();
  await running.close();
  rmSync(workDir, { recursive: true, force: true });
}
