// The HTTP API at scale: list and room GETs at R req/s from another process while N rooms record (latency, the
// recorder's CPU without, with, and again without the load in one run), then GET /api/room with M idle rooms (time, size, 304).
// Usage: npm run bench:api -- [--rooms 50] [--bitrate-kbps 6000] [--rps 500] [--list-share 0.5] [--seconds 20] [--warmup-seconds 120] [--floor-seconds 20] [--list-rooms 5000] [--out DIR]
// --floor-seconds 0 skips the floor (the same load against a minimal server in its own process while the recording runs).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { OutputTail, waitForLine } from './child-output.js';
import { installCleanup, removeDir, stopChild, tempDir, track } from './cleanup.js';
import { freePort } from './free-port.js';
import { getJson, waitFor } from './http-json.js';
import { summarize } from './latency.js';
import { describeMachine } from './machine.js';
import { cpuSeconds, cpuSplit, mainThreadCpuSplit } from './proc.js';
import { cliPath, startSimulator } from './simulator-process.js';
import { packageRoot } from '../src/paths.js';

const { values } = parseArgs({
  options: {
    rooms: { type: 'string' }, 'bitrate-kbps': { type: 'string' }, rps: { type: 'string' }, 'list-share': { type: 'string' },
    seconds: { type: 'string' }, 'list-rooms': { type: 'string' }, out: { type: 'string' }, 'floor-seconds': { type: 'string' }, 'warmup-seconds': { type: 'string' },
  },
});
const o = {
  rooms: Number(values.rooms ?? 50), bitrateKbps: Number(values['bitrate-kbps'] ?? 6000), rps: Number(values.rps ?? 500),
  listShare: Number(values['list-share'] ?? 0.5), seconds: Number(values.seconds ?? 20), listRooms: Number(values['list-rooms'] ?? 5000),
  floorSeconds: Number(values['floor-seconds'] ?? values.seconds ?? 20),
  warmupSeconds: Number(values['warmup-seconds'] ?? 120),
};
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const line = (s: string): void => void process.stderr.write(`api-scale: ${s}\n`);
const LOAD_WARMUP_S = 2;

/** `liverec run` on a fresh work dir with these rooms; default settings but the live API host (and a start-up budget). */
async function startLiverec(simUrl: string, roomIds: number[], global: Record<string, unknown>): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const workDir = tempDir('liverec-api-scale-');
  const rooms = roomIds.map((id) => ({ RoomId: { HasValue: true, Value: id }, AutoRecord: { HasValue: true, Value: true } }));
  const g = Object.fromEntries(Object.entries({ LiveApiHost: simUrl, MaxRooms: 0, ...global }).map(([k, v]) => [k, { HasValue: true, Value: v }]));
  writeFileSync(join(workDir, 'config.json'), JSON.stringify({ version: 3, global: g, rooms }));
  const url = `http://127.0.0.1:${await freePort()}`;
  // BENCH_CPU_PROF=<dir>: a V8 CPU profile of liverec (written when it stops), to see where the API's time goes.
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
  const child = track(spawn(process.execPath, [...prof, cliPath, 'run', workDir, '--bind', url, '-l', 'warn'], { stdio: ['ignore', 'pipe', 'pipe'] }));
  new OutputTail(child.stdout, 2000);
  new OutputTail(child.stderr, 2000);
  await waitFor('the liverec API', 60_000, async () => ((await getJson<unknown[]>(`${url}/api/room`)).length === roomIds.length ? true : undefined), 500);
  return { url, pid: child.pid!, stop: async () => { await stopChild(child); removeDir(workDir); } };
}

/** One keep-alive GET, timed to the last body byte. */
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
function timedGet(url: string, headers: Record<string, string> = {}): Promise<{ ms: number; status: number; bytes: number; etag: string }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const req = request(url, { agent, headers }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ ms: performance.now() - t, status: res.statusCode ?? 0, bytes, etag: String(res.headers.etag ?? '') }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function recordingPhase(): Promise<unknown> {
  line(`${o.rooms} rooms at ${o.bitrateKbps} kbps: starting the simulator`);
  const sim = await startSimulator(o.rooms, o.bitrateKbps, { clip: null, padWithFiller: false });
  const ids = sim.roomIds;
  // The default configuration users get: with the default API budget 50 rooms take a few minutes to start (3-4
  // live-API calls each), which the windows wait for.
  const rec = await startLiverec(sim.url, ids, {});
  await waitFor(`all ${ids.length} rooms to record`, 60_000 + ids.length * 8_000, async () => {
    const list = await getJson<{ recording: boolean; recordingStats: { sessionMaxTimestamp: number } }[]>(`${rec.url}/api/room`);
    const n = list.filter((r) => r.recording && r.recordingStats.sessionMaxTimestamp > 0).length;
    return n === ids.length ? true : undefined;
  }, 1000);
  // The recording's own CPU is not steady in its first minute or two: while the page cache takes writes without
  // reclaiming, writing is cheap (7.4 % of a core for 50 rooms here, then 16.8-17.4 % from the second minute on,
  // almost all of it system time). A recorder runs for hours, so the windows start once that has settled.
  line(`all rooms recording; ${o.warmupSeconds}-s warm-up`);
  await sleep(o.warmupSeconds * 1000);
  // Where the CPU goes: the main thread (which serves HTTP) against the others, user against system time.
  const split = (): number[] => {
    const a = cpuSplit(rec.pid)!;
    const m = mainThreadCpuSplit(rec.pid)!;
    return [m.userS, m.sysS, a.userS - m.userS, a.sysS - m.sysS];
  };
  /** The recorder's CPU over the next `seconds`: total % of a core, and by thread and mode. */
  const window = async (what: string): Promise<{ pct: number; byThread: Record<string, number> }> => {
    line(`${what}: ${o.seconds} s`);
    const t0 = Date.now();
    const a = split();
    await sleep(o.seconds * 1000);
    const b = split();
    const s = (Date.now() - t0) / 1000;
    const [mu, ms, ou, os] = b.map((x, i) => Math.round(((x - a[i]!) / s) * 10000) / 100);
    return { pct: ((b.reduce((x, y) => x + y) - a.reduce((x, y) => x + y)) / s) * 100, byThread: { mainUser: mu!, mainSys: ms!, otherUser: ou!, otherSys: os! } };
  };
  // Quiet, loaded, quiet: the recording's own cost drifts as files grow and the kernel writes back, so the baseline
  // is the mean of the windows either side of the load, not only the one before it.
  const before = await window('recording only');
  const load = startLoad(rec.url, ids, o.seconds);
  await load.warm;
  const g0 = cpuSeconds(load.pid) ?? 0;
  const loaded = await window(`with ${o.rps} req/s (${Math.round(o.listShare * 100)} % GET /api/room)`);
  const g1 = cpuSeconds(load.pid) ?? 0;
  const api = await load.result();
  await sleep(1000);
  const after = await window('recording only, again');
  const floor = o.floorSeconds > 0 ? await floorPhase(rec.url, ids) : null;
  const cpuQuiet = (before.pct + after.pct) / 2;
  const cpuLoaded = loaded.pct;
  await rec.stop();
  await sim.stop();
  return { rooms: ids.length, bitrateKbps: o.bitrateKbps, rps: o.rps, listShare: o.listShare, seconds: o.seconds,
    recorderCpuPct: { recordingOnly: cpuQuiet, withApiLoad: cpuLoaded, ratio: cpuLoaded / cpuQuiet,
      // The ratio a server costing only the floor would give: the best any server in the recorder's process could do.
      floorRatio: floor ? (cpuQuiet + floor.serverCpuPct) / cpuQuiet : null,
      windows: { before: before.pct, loaded: loaded.pct, after: after.pct },
      byThread: { before: before.byThread, loaded: loaded.byThread, after: after.byThread } },
    loadProcessCpuPct: ((g1 - g0) / o.seconds) * 100, api, floor };
}

/** api-load.js against `url` from one second from now; `warm` resolves when its warm-up is over. */
function startLoad(url: string, ids: number[], seconds: number): { pid: number; warm: Promise<void>; result(): Promise<unknown> } {
  const startAt = Date.now() + 1000;
  const load = track(spawn(process.execPath, [join(packageRoot, 'dist', 'bench', 'api-load.js'), '--url', url, '--ids', ids.join(','),
    '--rps', String(o.rps), '--seconds', String(seconds), '--warmup', String(LOAD_WARMUP_S), '--start-at', String(startAt), '--list-share', String(o.listShare)],
  { stdio: ['ignore', 'pipe', 'pipe'] }));
  let out = '';
  load.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const loadErr = new OutputTail(load.stderr, 2000);
  const exited = once(load, 'exit');
  return {
    pid: load.pid!,
    warm: sleep(Math.max(0, startAt + LOAD_WARMUP_S * 1000 - Date.now())),
    result: async () => {
      await exited;
      try {
        return JSON.parse(out) as unknown;
      } catch {
        throw new Error(`api-load gave no result: ${loadErr.tail}`);
      }
    },
  };
}

/**
 * The floor, measured while the recording still runs: the same load against api-floor-server.js (a minimal server
 * in its own process answering liverec's own two bodies), and that process's CPU. What the kernel and an event loop
 * cost for these requests on this machine, whatever the server.
 */
async function floorPhase(recUrl: string, ids: number[]): Promise<{ serverCpuPct: number; ok: number; p99Ms: number }> {
  const dir = tempDir('liverec-api-floor-');
  const listFile = join(dir, 'list.json');
  const roomFile = join(dir, 'room.json');
  writeFileSync(listFile, Buffer.from(await (await fetch(`${recUrl}/api/room`)).arrayBuffer()));
  writeFileSync(roomFile, Buffer.from(await (await fetch(`${recUrl}/api/room/${ids[0]}`)).arrayBuffer()));
  const server = track(spawn(process.execPath, [join(packageRoot, 'dist', 'bench', 'api-floor-server.js'), listFile, roomFile], { stdio: ['ignore', 'pipe', 'pipe'] }));
  const port = (await waitForLine(server.stdout!, /^(\d+)$/m, once(server, 'exit'), 30_000, 'floor server'))[1];
  line(`floor: the same load against a minimal server in its own process: ${o.floorSeconds} s`);
  const load = startLoad(`http://127.0.0.1:${port}`, ids, o.floorSeconds);
  await load.warm;
  const f0 = cpuSeconds(server.pid!)!;
  const t0 = Date.now();
  await sleep(o.floorSeconds * 1000);
  const s = (Date.now() - t0) / 1000;
  const cpuPct = ((cpuSeconds(server.pid!)! - f0) / s) * 100;
  const api = (await load.result()) as { ok: number; p99Ms: number };
  await stopChild(server);
  removeDir(dir);
  return { serverCpuPct: cpuPct, ok: api.ok, p99Ms: api.p99Ms };
}

async function listPhase(): Promise<unknown> {
  line(`${o.listRooms} idle rooms: starting the simulator and liverec`);
  const sim = track(spawn(process.execPath, [cliPath, 'simulate', '--small-clips', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] }));
  const simUrl = (await waitForLine(sim.stdout!, /http:\/\/127\.0\.0\.1:\d+/, once(sim, 'exit'), 60_000, 'simulator'))[0];
  sim.stdout!.resume();
  const first = 1_000_001;
  await fetch(`${simUrl}/_sim/rooms/bulk`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ count: o.listRooms, firstRoomId: first }) });
  const rec = await startLiverec(simUrl, Array.from({ length: o.listRooms }, (_, i) => first + i), {});
  line('listed; 30-s settle (the detector learns every room once)');
  await sleep(30_000);
  const full: number[] = [];
  const cached: number[] = [];
  let bytes = 0;
  let etag = '';
  const statuses: Record<string, number> = {};
  for (let i = 0; i < 30; i++) {
    const a = await timedGet(`${rec.url}/api/room`);
    full.push(a.ms);
    bytes = a.bytes;
    etag = a.etag;
    const b = await timedGet(`${rec.url}/api/room`, { 'if-none-match': etag });
    cached.push(b.ms);
    statuses[b.status] = (statuses[b.status] ?? 0) + 1;
    await sleep(200);
  }
  await rec.stop();
  await stopChild(sim);
  return { rooms: o.listRooms, bodyBytes: bytes, full: { ...summarize(full), samplesMs: full.map((x) => Math.round(x * 10) / 10) }, ifNoneMatch: { ...summarize(cached), statuses } };
}

async function main(): Promise<void> {
  installCleanup();
  const t0 = new Date();
  const machine = describeMachine();
  const recording = o.rooms > 0 ? await recordingPhase() : null;
  const list = o.listRooms > 0 ? await listPhase() : null;
  const result = { command: `npm run bench:api -- ${process.argv.slice(2).join(' ')}`.trim(), startedAt: t0.toISOString(), machine,
    loadAverageAtEnd: loadavg(), recording, list };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  if (values.out) {
    mkdirSync(values.out, { recursive: true });
    writeFileSync(join(values.out, `api-scale-${t0.toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify(result, null, 2));
  }
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
