// Idle rooms at scale: N monitored rooms, K going live at random moments: RSS, CPU, sockets, API calls a minute, detection delay.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OutputTail, waitForLine } from './child-output.js';
import { removeDir, stopChild, tempDir, track, installCleanup } from './cleanup.js';
import { freePort } from './free-port.js';
import { getJson } from './http-json.js';
import { cpuSeconds } from './proc.js';
import { cliPath } from './simulator-process.js';

interface Options { rooms: number; live: number; warmS: number; idleS: number; liveS: number; risk: number }

function parse(argv: string[]): Options {
  const o: Options = { rooms: 5000, live: 10, warmS: 60, idleS: 60, liveS: 90, risk: 60 };
  for (let i = 0; i < argv.length; i += 2) {
    const [k, v] = [argv[i]!, Number(argv[i + 1])];
    if (!Number.isFinite(v) || v < 0) throw new Error(`${k} needs a number`);
    if (k === '--rooms') o.rooms = v;
    else if (k === '--live') o.live = v;
    else if (k === '--warm-seconds') o.warmS = v;
    else if (k === '--idle-seconds') o.idleS = v;
    else if (k === '--live-seconds') o.liveS = v;
    else if (k === '--risk-per-minute') o.risk = v;
    else throw new Error(`unknown option ${k} (--rooms, --live, --warm-seconds, --idle-seconds, --live-seconds, --risk-per-minute)`);
  }
  return o;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function rssMiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

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
  await sleep(o.idleS * 1000);
  const cpu1 = cpuSeconds(pid) ?? 0;
  const s1 = await stats();
  const idleMin = (Date.now() - t1) / 60_000;
  const idle = {
    rssMiB: rssMiB(pid), cpuPercent: ((cpu1 - cpu0) / ((Date.now() - t1) / 1000)) * 100, sockets: sockets(pid),
    danmakuSockets: s1.openDanmaku, apiCallsPerMinute: (s1.apiCalls - s0.apiCalls) / idleMin,
  };
  // Phase 3: K rooms go live at random moments; delay = live flip → the room's file is open (recording true).
  const picks = new Set<number>();
  while (picks.size < Math.min(o.live, o.rooms)) picks.add(first + Math.floor(Math.random() * o.rooms));
  const flips = [...picks].map((id) => ({ id, at: Math.random() * (o.liveS * 1000 * 0.5) }));
  const delays: number[] = [];
  const tLive = Date.now();
  await Promise.all(flips.map(async (f) => {
    await sleep(f.at);
    await post(`${simUrl}/_sim/rooms/${f.id}/live`, { live: true });
    const start = Date.now();
    while (Date.now() - tLive < o.liveS * 1000) {
      const r = await getJson<{ recording: boolean; recordingStats: { sessionMaxTimestamp: number } }>(`${apiUrl}/api/room/${f.id}`).catch(() => null);
      if (r?.recording) {
        delays.push((Date.now() - start) / 1000);
        return;
      }
      await sleep(500);
    }
  }));
  const s2 = await stats();
  const sorted = [...delays].sort((a, b) => a - b);
  const pct = (p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
  const result = {
    command: `npm run bench:idle -- ${process.argv.slice(2).join(' ')}`.trim(), options: o, startedAt: new Date(t0).toISOString(),
    firstMinute: { apiCalls: warm.apiCalls, baseInfoCalls: warm.baseInfoCalls, batchCalls: warm.batchCalls },
    idle,
    live: { flipped: flips.length, detected: delays.length, delayP50S: pct(50), delayP95S: pct(95), delayMaxS: sorted.at(-1) ?? NaN, apiCallsDuring: s2.apiCalls - s1.apiCalls },
    risk: { threshold: o.risk, hits: s2.riskHits, peakCallsPerMinute: s2.peakApiCallsPerMinute },
    rssEndMiB: rssMiB(pid), stderr: err.tail.slice(-500),
  };
  line(JSON.stringify(result, null, 2));
  const dir = join('bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `idle-${o.rooms}-${new Date(t0).toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify(result, null, 2));
  await stopChild(rec);
  await stopChild(sim);
  removeDir(workDir);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
