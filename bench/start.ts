// Start latency (issue 48): N rooms live when liverec starts, or N going live at once while it runs, under risk control.
// Per room: live (or API up) → first byte on disk, the stream's opening missing from the file, API calls; risk answers.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdirSync, openSync, readdirSync, readSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { OutputTail, waitForLine } from './child-output.js';
import { installCleanup, removeDir, stopChild, tempDir, track } from './cleanup.js';
import { freePort } from './free-port.js';
import { getJson } from './http-json.js';
import { describeMachine } from './machine.js';
import { freshStem } from './result-name.js';
import { cliPath } from './simulator-process.js';

/**
 * mode: `at-start` (the rooms are live, their streams 20 s old, when liverec starts) or `going-live` (they flip live
 * within one second once every room has been checked). idle: rooms watched besides them, never live. budget: unset =
 * the default configuration; 0 = the reference run without any budget.
 */
interface Options { rooms: number; idle: number; mode: 'at-start' | 'going-live'; risk: number; budget: number | null; watchS: number; warmS: number }

function parse(argv: string[]): Options {
  const o: Options = { rooms: 10, idle: 0, mode: 'at-start', risk: 60, budget: null, watchS: 150, warmS: 0 };
  for (let i = 0; i < argv.length; i += 2) {
    const [k, v] = [argv[i]!, argv[i + 1]];
    if (k === '--mode' && (v === 'at-start' || v === 'going-live')) o.mode = v;
    else if (['--rooms', '--idle', '--risk-per-minute', '--budget', '--watch-seconds', '--warm-seconds'].includes(k) && Number.isFinite(Number(v)) && Number(v) >= 0) {
      const n = Number(v);
      if (k === '--rooms') o.rooms = n;
      else if (k === '--idle') o.idle = n;
      else if (k === '--risk-per-minute') o.risk = n;
      else if (k === '--budget') o.budget = n;
      else if (k === '--warm-seconds') o.warmS = n;
      else o.watchS = n;
    } else throw new Error(`bad option ${k} ${v ?? ''} (--rooms N, --idle N, --mode at-start|going-live, --risk-per-minute N, --budget N, --watch-seconds N, --warm-seconds N)`);
  }
  return o;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function post(url: string, body: unknown): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`POST ${url}: HTTP ${res.status} ${await res.text()}`);
}

const MEDIA = /\.(flv|m4s|mp4|ts)$/;
/** The simulator stamps every video frame with its stream time (ms since the stream began) in an SEI: "liverec-sim-time". */
const SEI_UUID = Buffer.from('6c6976657265632d73696d2d74696d65', 'hex');

/** The room's recordings (oldest first by the template's time stamp), as absolute paths. */
function mediaFiles(workDir: string, roomId: number): string[] {
  const dir = readdirSync(workDir).find((d) => d.startsWith(`${roomId}-`));
  if (!dir) return [];
  return readdirSync(join(workDir, dir)).filter((f) => MEDIA.test(f)).sort().map((f) => join(workDir, dir, f));
}

/** Stream ms of the first video frame in the file (its first SEI), or null. */
function firstStreamMs(path: string): number | null {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(4 << 20);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const at = buf.subarray(0, n).indexOf(SEI_UUID);
    return at < 0 ? null : Number(buf.subarray(at + 16, at + 28).toString('latin1').replace(/\D/g, ''));
  } finally {
    closeSync(fd);
  }
}

interface SimStats { apiCalls: number; batchCalls: number; baseInfoCalls: number; riskHits: number; peakApiCallsPerMinute: number }
interface SimRoom { counters: { apiHits: { total: number; getInfoByRoom: number; getRoomPlayInfo: number; getDanmuInfo: number; masterPlaylist: number } }; apiLog: { at: number; path: string; query: string }[] }

async function main(): Promise<void> {
  installCleanup();
  const o = parse(process.argv.slice(2));
  const machine = describeMachine();
  const sim = track(spawn(process.execPath, [cliPath, 'simulate', '--small-clips', '--risk-per-minute', String(o.risk)], { stdio: ['ignore', 'pipe', 'pipe'] }));
  const simUrl = (await waitForLine(sim.stdout!, /listening on (http:\/\/\S+)/, once(sim, 'exit'), 60_000, 'simulator'))[1]!;
  const first = 2_000_001;
  const ids = Array.from({ length: o.rooms }, (_, i) => first + i);
  for (const roomId of ids) {
    await post(`${simUrl}/_sim/rooms`, { roomId, live: o.mode === 'at-start', liveStream: { streamAgeSec: o.mode === 'at-start' ? 20 : 0, hlsRetentionSec: 120 } });
  }
  if (o.idle > 0) await post(`${simUrl}/_sim/rooms/bulk`, { count: o.idle, firstRoomId: 3_000_001 });
  const workDir = tempDir('liverec-start-');
  mkdirSync(workDir, { recursive: true });
  const all = [...ids, ...Array.from({ length: o.idle }, (_, i) => 3_000_001 + i)];
  const rooms = all.map((id) => ({ RoomId: { HasValue: true, Value: id }, AutoRecord: { HasValue: true, Value: true } }));
  const global: Record<string, unknown> = { LiveApiHost: { HasValue: true, Value: simUrl }, MaxRooms: { HasValue: true, Value: 0 } };
  if (o.budget !== null) global.ApiBudgetPerMinute = { HasValue: true, Value: o.budget };
  writeFileSync(join(workDir, 'config.json'), JSON.stringify({ version: 3, global, rooms }));
  const apiUrl = `http://127.0.0.1:${await freePort()}`;
  const t0 = Date.now();
  const rec = track(spawn(process.execPath, [cliPath, 'run', workDir, '--bind', apiUrl, '-l', 'warn'], { stdio: ['ignore', 'pipe', 'pipe'] }));
  const err = new OutputTail(rec.stderr, 4000);
  new OutputTail(rec.stdout, 4000);
  const line = (s: string): void => void process.stdout.write(`${s}\n`);
  line(`start bench: ${o.rooms} rooms ${o.mode}, ${o.idle} idle, risk control ${o.risk}/min, budget ${o.budget ?? 'default'}; liverec pid ${rec.pid}`);
  // "API up": the recorder's HTTP API answers.
  for (;;) {
    if (await getJson(`${apiUrl}/api/version`, 2000).then(() => true, () => false)) break;
    if (Date.now() - t0 > 60_000) throw new Error(`liverec did not answer: ${err.tail}`);
    await sleep(50);
  }
  let from = Date.now();
  const apiUpS = (from - t0) / 1000;
  if (o.mode === 'going-live') {
    // Every room checked once (uids learned, a batch round done) before the flips.
    for (let i = 0; i < 120; i++) {
      const s = await getJson<SimStats>(`${simUrl}/_sim/stats`);
      if (s.batchCalls >= Math.ceil(all.length / 500) + 1) break;
      await sleep(1000);
    }
    // --warm-seconds: a liverec that has run a while (its start-up calls gone from the minute, detection's in it).
    await sleep(3000 + o.warmS * 1000);
    from = Date.now();
    await Promise.all(ids.map((id) => post(`${simUrl}/_sim/rooms/${id}/live`, { live: true })));
  }
  const before = await getJson<SimStats>(`${simUrl}/_sim/stats`);
  // First byte on disk: a media file of the room with a size above 0, looked for every 100 ms.
  const firstByte = new Map<number, number>();
  while (firstByte.size < ids.length && Date.now() - from < o.watchS * 1000) {
    for (const id of ids) {
      if (firstByte.has(id)) continue;
      if (mediaFiles(workDir, id).some((f) => statSync(f, { throwIfNoEntry: false })?.size)) firstByte.set(id, (Date.now() - from) / 1000);
    }
    await sleep(100);
  }
  // A minute more, so that each started room's danmaku token and the next rounds are counted too.
  await sleep(Math.min(60_000, o.watchS * 1000));
  const after = await getJson<SimStats>(`${simUrl}/_sim/stats`);
  const perRoom = await Promise.all(ids.map((id) => getJson<SimRoom>(`${simUrl}/_sim/rooms/${id}`)));
  await stopChild(rec);
  await stopChild(sim);
  const missing: number[] = [];
  for (const id of ids) {
    const f = mediaFiles(workDir, id)[0];
    const ms = f ? firstStreamMs(f) : null;
    if (ms !== null) missing.push(ms / 1000);
  }
  const sorted = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);
  const pct = (xs: number[], p: number): number => sorted(xs)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)] ?? NaN;
  const times = [...firstByte.values()];
  // Where the time went: the room's first stream call (play info or master playlist) after the start point, and from it to
  // the first byte on disk.
  const STREAM_CALL = /getRoomPlayInfo|master\/url/;
  const streamCallS = new Map<number, number>();
  perRoom.forEach((r, i) => {
    const at = r.apiLog.find((l) => l.at >= from && STREAM_CALL.test(l.path))?.at;
    if (at !== undefined) streamCallS.set(ids[i]!, (at - from) / 1000);
  });
  const callToByte = ids.filter((id) => firstByte.has(id) && streamCallS.has(id)).map((id) => firstByte.get(id)! - streamCallS.get(id)!);
  const started = perRoom.filter((_, i) => firstByte.has(ids[i]!));
  const sum = (k: keyof SimRoom['counters']['apiHits']): number => started.reduce((a, r) => a + r.counters.apiHits[k], 0);
  const round = (x: number): number => Math.round(x * 10) / 10;
  const result = {
    command: `npm run bench:start -- ${process.argv.slice(2).join(' ')}`.trim(), options: o, startedAt: new Date(t0).toISOString(),
    from: o.mode === 'at-start' ? 'API up' : 'live flip', apiUpS: round(apiUpS),
    firstByte: { recorded: times.length, of: ids.length, p50S: round(pct(times, 50)), p95S: round(pct(times, 95)), maxS: round(Math.max(...times)) },
    streamCall: { p50S: round(pct([...streamCallS.values()], 50)), p95S: round(pct([...streamCallS.values()], 95)), maxS: round(Math.max(...streamCallS.values())) },
    streamCallToFirstByte: { p50S: round(pct(callToByte, 50)), p95S: round(pct(callToByte, 95)), maxS: round(Math.max(...callToByte)) },
    // Seconds after the start point of each room's first stream call and first byte, by room (sorted by first byte).
    rooms: ids.filter((id) => firstByte.has(id)).sort((a, b) => firstByte.get(a)! - firstByte.get(b)!)
      .map((id) => `${id}: call ${streamCallS.get(id)?.toFixed(1) ?? '-'} s, byte ${firstByte.get(id)!.toFixed(1)} s`),
    openingMissing: { files: missing.length, p50S: round(pct(missing, 50)), p95S: round(pct(missing, 95)), maxS: round(Math.max(...missing)) },
    apiCallsPerStartedRoom: started.length ? {
      total: round(sum('total') / started.length), getRoomPlayInfo: round(sum('getRoomPlayInfo') / started.length),
      getInfoByRoom: round(sum('getInfoByRoom') / started.length), getDanmuInfo: round(sum('getDanmuInfo') / started.length),
      masterPlaylist: round(sum('masterPlaylist') / started.length),
    } : null,
    // The first started room's live-API calls (endpoint and the qn asked), seconds after the start point.
    firstRoomCalls: (started[0]?.apiLog ?? []).map((l) => `${((l.at - from) / 1000).toFixed(1)} s ${l.path.split('/').pop()}${/[?&]qn=(\d+)/.exec(l.query)?.[0].slice(1) ? ` ${/[?&]qn=(\d+)/.exec(l.query)![0].slice(1)}` : ''}`),
    apiCalls: { total: after.apiCalls, duringRun: after.apiCalls - (o.mode === 'at-start' ? 0 : before.apiCalls), batch: after.batchCalls, baseInfo: after.baseInfoCalls },
    risk: { threshold: o.risk, hits: after.riskHits, peakCallsPerMinute: after.peakApiCallsPerMinute },
    machine, loadAverageAtEnd: loadavg().map((l) => Math.round(l * 100) / 100), stderr: err.tail.slice(-500),
  };
  line(JSON.stringify(result, null, 2));
  const dir = join('bench', 'results');
  mkdirSync(dir, { recursive: true });
  const tag = `${o.rooms}r-${o.mode}${o.idle ? `-${o.idle}idle` : ''}${o.warmS ? `-warm${o.warmS}` : ''}-budget-${o.budget ?? 'default'}`;
  const stem = freshStem(join(dir, `${new Date(t0).toISOString().slice(0, 10)}-start-${tag}-${machine.gitCommit?.replace(/\+.*/, '') ?? 'nogit'}`));
  writeFileSync(`${stem}.json`, JSON.stringify(result, null, 2));
  line(`written ${stem}.json`);
  removeDir(workDir);
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
