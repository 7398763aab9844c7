// Idle rooms at scale: N monitored rooms, K going live at random moments: RSS, CPU, sockets, API calls a minute, detection delay.
// `--live 50 --live-window 60` is the burst: 50 rooms live within one minute, every call through one budget.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OutputTail, waitForLine } from './child-output.js';
import { removeDir, stopChild, tempDir, track, installCleanup } from './cleanup.js';
import { freePort } from './free-port.js';
import { describeMachine } from './machine.js';
import { freshStem } from './result-name.js';
import { loadavg } from 'node:os';
import { getJson } from './http-json.js';
import { cpuSeconds } from './proc.js';
import { cliPath } from './simulator-process.js';

/**
 * liveWindowS: the K live flips fall at random moments within this many seconds; liveS: how long each flipped room
 * is watched for its start after its flip (a room not recording by then counts as not detected).
 */
interface Options { rooms: number; live: number; warmS: number; idleS: number; liveWindowS: number; liveS: number; risk: number }

function parse(argv: string[]): Options {
  const o: Options = { rooms: 5000, live: 10, warmS: 60, idleS: 60, liveWindowS: 60, liveS: 130, risk: 60 };
  for (let i = 0; i < argv.length; i += 2) {
    const [k, v] = [argv[i]!, Number(argv[i + 1])];
    if (!Number.isFinite(v) || v < 0) throw new Error(`${k} needs a number`);
    if (k === '--rooms') o.rooms = v;
    else if (k === '--live') o.live = v;
    else if (k === '--warm-seconds') o.warmS = v;
    else if (k === '--idle-seconds') o.idleS = v;
    else if (k === '--live-seconds') o.liveS = v;
    else if (k === '--live-window') o.liveWindowS = v;
    else if (k === '--risk-per-minute') o.risk = v;
    else throw new Error(`unknown option ${k} (--rooms, --live, --warm-seconds, --idle-seconds, --live-window, --live-seconds, --risk-per-minute)`);
  }
  return o;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** VmRSS in KiB. */
function rssKiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : NaN;
  } catch {
    return NaN;
  }
}

/** RSS in both units the targets are read in: MiB (2^20 bytes) and MB (10^6 bytes). */
const rssBoth = (kib: number): { MiB: number; MB: number } => ({ MiB: Math.round((kib / 1024) * 10) / 10, MB: Math.round(((kib * 1024) / 1e6) * 10) / 10 });

/** Sockets the process holds (every fd that is a socket: the API listener, keep-alive, danmaku). */
function sockets(pid: number): number {
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) n++;
    } catch { /* closed meanwhile */ }
  }
  return n;
}

interface SimStats { apiCalls: number; batchCalls: number; baseInfoCalls: number; riskHits: number; peakApiCallsPerMinute: number; openDanmaku: number }

async function post(url: string, body: unknown): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`POST ${url}: HTTP ${res.status} ${await res.text()}`);
}

async function main(): Promise<void> {
  installCleanup();
  const o = parse(process.argv.slice(2));
  // Load averages at start and end: other work on a shared machine shows there.
  const machine = describeMachine();
  const sim = track(spawn(process.execPath, [cliPath, 'simulate', '--small-clips', '--risk-per-minute', String(o.risk)], { stdio: ['ignore', 'pipe', 'pipe'] }));
  const m = await waitForLine(sim.stdout!, /listening on (http:\/\/\S+)/, once(sim, 'exit'), 60_000, 'simulator');
  const simUrl = m[1]!;
  const first = 1_000_001;
  await post(`${simUrl}/_sim/rooms/bulk`, { count: o.rooms, firstRoomId: first });
  const workDir = tempDir('liverec-idle-');
  mkdirSync(workDir, { recursive: true });
  const rooms = Array.from({ length: o.rooms }, (_, i) => ({ RoomId: { HasValue: true, Value: first + i }, AutoRecord: { HasValue: true, Value: true } }));
  writeFileSync(join(workDir, 'config.json'), JSON.stringify({ version: 3, global: { LiveApiHost: { HasValue: true, Value: simUrl }, MaxRooms: { HasValue: true, Value: 0 } }, rooms }));
  const port = await freePort();
  const apiUrl = `http://127.0.0.1:${port}`;
  const t0 = Date.now();
  const rec = track(spawn(process.execPath, [cliPath, 'run', workDir, '--bind', apiUrl, '-l', 'warn'], { stdio: ['ignore', 'pipe', 'pipe'] }));
  const err = new OutputTail(rec.stderr, 4000);
  new OutputTail(rec.stdout, 4000);
  const pid = rec.pid!;
  const stats = (): Promise<SimStats> => getJson<SimStats>(`${simUrl}/_sim/stats`);
  const line = (s: string): void => void process.stdout.write(`${s}\n`);
  line(`idle bench: ${o.rooms} rooms, ${o.live} going live, risk control ${o.risk}/min; liverec pid ${pid}`);

  // Phase 1: the first minute after start.
  await sleep(o.warmS * 1000);
  const warm = await stats();
  // Phase 2: steady state, nothing live.
  const cpu0 = cpuSeconds(pid) ?? 0;
  const s0 = await stats();
  const t1 = Date.now();
  let rssMax = rssKiB(pid);
  while (Date.now() - t1 < o.idleS * 1000) {
    await sleep(Math.min(5000, Math.max(0, o.idleS * 1000 - (Date.now() - t1))));
    rssMax = Math.max(rssMax, rssKiB(pid));
  }
  const cpu1 = cpuSeconds(pid) ?? 0;
  const s1 = await stats();
  const idleMin = (Date.now() - t1) / 60_000;
  const idle = {
    rss: rssBoth(rssKiB(pid)), rssMax: rssBoth(rssMax), cpuPercent: ((cpu1 - cpu0) / ((Date.now() - t1) / 1000)) * 100, sockets: sockets(pid),
    danmakuSockets: s1.openDanmaku, apiCallsPerMinute: (s1.apiCalls - s0.apiCalls) / idleMin,
  };
  line(`idle: ${JSON.stringify(idle)}`);
  // Phase 3: K rooms go live at random moments; delay = live flip → the room's file is open (recording true).
  const picks = new Set<number>();
  while (picks.size < Math.min(o.live, o.rooms)) picks.add(first + Math.floor(Math.random() * o.rooms));
  const flips = [...picks].map((id) => ({ id, at: Math.random() * o.liveWindowS * 1000 }));
  const delays: number[] = [];
  // The simulator's call count every 5 s: calls in each minute of the live phase (every kind, batch calls included).
  const callSamples: { t: number; calls: number }[] = [{ t: 0, calls: s1.apiCalls }];
  const tLive = Date.now();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      await sleep(5000);
      callSamples.push({ t: Date.now() - tLive, calls: (await stats()).apiCalls });
    }
  })();
  await Promise.all(flips.map(async (f) => {
    await sleep(f.at);
    await post(`${simUrl}/_sim/rooms/${f.id}/live`, { live: true });
    const start = Date.now();
    while (Date.now() - start < o.liveS * 1000) {
      const r = await getJson<{ recording: boolean; recordingStats: { sessionMaxTimestamp: number } }>(`${apiUrl}/api/room/${f.id}`).catch(() => null);
      if (r?.recording) {
        delays.push((Date.now() - start) / 1000);
        return;
      }
      await sleep(500);
    }
  }));
  sampling = false;
  await sampler;
  const s2 = await stats();
  const perMinute: number[] = [];
  for (const a of callSamples) {
    const b = callSamples.find((x) => x.t >= a.t + 60_000);
    if (b) perMinute.push(b.calls - a.calls);
  }
  const sorted = [...delays].sort((a, b) => a - b);
  const pct = (p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
  const result = {
    command: `npm run bench:idle -- ${process.argv.slice(2).join(' ')}`.trim(), options: o, startedAt: new Date(t0).toISOString(),
    firstMinute: { apiCalls: warm.apiCalls, baseInfoCalls: warm.baseInfoCalls, batchCalls: warm.batchCalls },
    idle,
    live: {
      flipped: flips.length, detected: delays.length, delayP50S: pct(50), delayP95S: pct(95), delayMaxS: sorted.at(-1) ?? NaN,
      apiCallsDuring: s2.apiCalls - s1.apiCalls, maxCallsInAMinute: Math.max(0, ...perMinute),
    },
    risk: { threshold: o.risk, hits: s2.riskHits, peakCallsPerMinute: s2.peakApiCallsPerMinute },
    rssEnd: rssBoth(rssKiB(pid)), machine, loadAverageAtEnd: loadavg().map((l) => Math.round(l * 100) / 100), stderr: err.tail.slice(-500),
  };
  line(JSON.stringify(result, null, 2));
  const dir = join('bench', 'results');
  mkdirSync(dir, { recursive: true });
  const stem = freshStem(join(dir, `${new Date(t0).toISOString().slice(0, 10)}-idle-${o.rooms}r-${o.live}live-${machine.gitCommit?.replace(/\+.*/, '') ?? 'nogit'}`));
  writeFileSync(`${stem}.json`, JSON.stringify(result, null, 2));
  line(`written ${stem}.json`);
  await stopChild(rec);
  await stopChild(sim);
  removeDir(workDir);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
