// Hostile soak (issue 36): every hostile HLS, danmaku and FLV room at once beside 10 healthy rooms, in one liverec service;
// RSS sampled throughout (flat after warm-up?), every healthy file checked with ffprobe at the end.
// Run: npm run build && node dist/bench/hostile-soak.js [--seconds 600] [--warmup 60]
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigStore } from '../src/config/store.js';
import { startService } from '../src/service.js';
import { Simulator, type SimRoomInit } from '../src/simulator/index.js';
import { startHostileCdn } from '../test/hardening/hostile-cdn.js';
import { type DanmakuAttack, type HostileDanmaku, startHostileDanmaku } from '../test/hardening-hostile/hostile-danmaku.js';
import { type HlsAttack, startHostileHls } from '../test/hardening-hostile/hostile-hls.js';
import { probe } from '../test/support/media-tools.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const seconds = Number(arg('seconds', '600'));
const warmup = Number(arg('warmup', String(Math.min(60, Math.round(seconds / 5)))));
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const mib = (): number => Math.round(process.memoryUsage().rss / 1048576);

const HEALTHY = Array.from({ length: 10 }, (_, i) => 37_000 + i);
const HLS = new Map<number, HlsAttack>([
  [37_101, 'trun-bomb'], [37_102, 'deep-moof'], [37_103, 'endless-segment'], [37_104, 'huge-segment'],
  [37_105, 'huge-init'], [37_106, 'all-404'], [37_107, 'target-huge'],
]);
const DANMAKU: [number, DanmakuAttack, number?][] = [
  [37_201, 'zlib-flood'], [37_202, 'endless-message'], [37_203, 'ping-flood'], [37_204, 'room-change', 15_000_000], [37_205, 'room-change', 4_000_000],
];
const FLV_HUGE = 37_301;
const DUPLICATES = 37_302;

const hls = await startHostileHls(HLS, { hugeBytes: 64 * 1024 * 1024 });
const danmaku = new Map<number, HostileDanmaku>();
for (const [id, mode, titleBytes] of DANMAKU) danmaku.set(id, await startHostileDanmaku(mode, { titleBytes }));
const flvHuge = await startHostileCdn('huge-tags');

const sim = new Simulator();
const running = await sim.start();
hls.upstream = running.url;
const rooms: SimRoomInit[] = [
  ...HEALTHY.map((roomId, i) => ({ roomId, live: true, bitrateKbps: 1000, formats: [i % 2 === 0 ? 'flv' as const : 'fmp4' as const] })),
  ...[...HLS.keys()].map((roomId) => ({ roomId, live: true, formats: ['fmp4' as const], streamHost: hls.url })),
  ...DANMAKU.map(([roomId]) => ({ roomId, live: true, formats: ['flv' as const], bitrateKbps: 500, danmakuServer: { host: '127.0.0.1', wsPort: danmaku.get(roomId)!.wsPort } })),
  { roomId: FLV_HUGE, live: true, formats: ['flv'], streamHost: flvHuge.url },
  { roomId: DUPLICATES, live: true, formats: ['flv'], bitrateKbps: 1000 },
];
for (const r of rooms) sim.createRoom(r);
const workDir = mkdtempSync(join(tmpdir(), 'liverec-hostile-soak-'));
const config = new ConfigStore();
Object.assign(config.global, { LiveApiHost: running.url, TimingWatchdogTimeout: 3000, TimingStreamRetry: 1000, TimingDanmakuRetry: 1000 });
for (const r of rooms) config.addRoom(r.roomId, true);
process.env.LIVEREC_LOG_LEVEL ??= 'error';
const service = await startService({ workDir, config });
const samples: { t: number; rssMB: number }[] = [];
const t0 = Date.now();
try {
  while (Date.now() - t0 < seconds * 1000) {
    samples.push({ t: Math.round((Date.now() - t0) / 1000), rssMB: mib() });
    if (samples.length % 3 === 0) sim.addFault(DUPLICATES, { kind: 'duplicate-chunk', afterMs: 0 });
    await sleep(5000);
  }
  for (const r of rooms) sim.setLive(r.roomId, false);
  const end = Date.now() + 30_000;
  while (Date.now() < end && HEALTHY.some((id) => service.recorder.findRoom(id)?.state.recording)) await sleep(500);
} finally {
  await service.close();
  await running.close();
  await hls.close();
  await flvHuge.close();
  for (const d of danmaku.values()) await d.close();
}
const files = readdirSync(workDir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(flv|mp4)$/.test(f));
const of = (ids: number[]): string[] => files.filter((f) => ids.some((id) => f.includes(`${id}-`)));
let healthyBad = 0;
let healthyMedia = 0;
for (const f of of([...HEALTHY, DUPLICATES])) {
  const p = await probe(join(workDir, f));
  if (p.errors !== '') healthyBad++;
  healthyMedia += Number.isFinite(p.duration) ? p.duration : 0;
}
const after = samples.filter((s) => s.t >= warmup);
const first = after[0]?.rssMB ?? 0;
const last = after.at(-1)?.rssMB ?? 0;
console.log(JSON.stringify({
  seconds, warmupSeconds: warmup, rooms: { healthy: HEALTHY.length + 1, hostile: HLS.size + DANMAKU.length + 1 },
  rssMB: { afterWarmup: first, end: last, maxAfterWarmup: Math.max(...after.map((s) => s.rssMB)), max: Math.max(...samples.map((s) => s.rssMB)) },
  rssGrowthAfterWarmupMB: last - first,
  healthyFiles: of([...HEALTHY, DUPLICATES]).length, healthyFilesWithErrors: healthyBad,
  healthyMediaSeconds: Math.round(healthyMedia), healthyMediaPerRoomPerWallSecond: Number((healthyMedia / (HEALTHY.length + 1) / seconds).toFixed(3)),
  hostileFiles: files.length - of([...HEALTHY, DUPLICATES]).length,
  note: 'simulator, hostile servers, recorder and its workers share this process; RSS is the whole process',
  samples,
}));
rmSync(workDir, { recursive: true, force: true });
