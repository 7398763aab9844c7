// `npm run bench:cluster`: N liverec nodes on one PostgreSQL recording R simulated rooms; per-node CPU, RSS and rooms.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../src/paths.js';
import { installCleanup, removeDir, stopAll, stopChild, tempDir, track } from './cleanup.js';
import { freePort } from './free-port.js';
import { getJson, waitFor } from './http-json.js';
import { describeMachine, machineLine } from './machine.js';
import { startPostgres } from './postgres.js';
import { cpuSeconds, rssKiB } from './proc.js';
import { phase } from './progress.js';
import { freshStem } from './result-name.js';
import { cliPath, startSimulator } from './simulator-process.js';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '3' },
    rooms: { type: 'string', default: '30' },
    'bitrate-kbps': { type: 'string', default: '3000' },
    seconds: { type: 'string', default: '20' },
  },
});
const nodes = Number(values.nodes);
const rooms = Number(values.rooms);
const seconds = Number(values.seconds);

let stopPg: () => Promise<void> = async () => undefined;

interface NodeRun { id: string; url: string; pid: number; stop(): Promise<void> }
type RoomView = { roomId: number; ownerNode: string | null; recording: boolean };

async function startNode(id: string, dbUrl: string): Promise<NodeRun> {
  const port = await freePort();
  const dir = tempDir(`liverec-bench-${id}-`);
  const child = track(spawn(process.execPath, [cliPath, 'run', dir, '--cluster', dbUrl, '--node-id', id, '--bind', `http://127.0.0.1:${port}`],
    { stdio: 'ignore', env: { ...process.env, LIVEREC_LOG_LEVEL: 'warn' } }));
  return { id, url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => stopChild(child) };
}

async function main(): Promise<void> {
  installCleanup();
  const machine = describeMachine();
  phase(`machine: ${machineLine(machine)}`);
  const sim = await startSimulator(rooms, Number(values['bitrate-kbps']), { clip: null, padWithFiller: false });
  phase(`simulator: ${rooms} rooms of ${sim.content?.name ?? 'content'} at ${sim.content?.kbps ?? '?'} kbps`);
  const pg = await startPostgres();
  stopPg = () => pg.stop();
  const started = await Promise.all(Array.from({ length: nodes }, (_, i) => startNode(`n${i + 1}`, pg.url)));
  await waitFor('every node registered', 120_000, async () => {
    const list = await getJson<{ alive: boolean }[]>(`${started[0]!.url}/api/cluster/nodes`);
    return list.filter((n) => n.alive).length === nodes ? true : undefined;
  });
  const file = join(tempDir('liverec-bench-cfg-'), 'config.json');
  writeFileSync(file, JSON.stringify({
    version: 3,
    global: { LiveApiHost: { HasValue: true, Value: sim.url } },
    rooms: sim.roomIds.map((id) => ({ RoomId: { HasValue: true, Value: id }, AutoRecord: { HasValue: true, Value: true } })),
  }));
  await new Promise((resolve, reject) => spawn(process.execPath, [cliPath, 'cluster', 'import', file, '--cluster', pg.url], { stdio: 'ignore' })
    .on('exit', (code) => (code === 0 ? resolve(null) : reject(new Error(`cluster import exited ${code}`)))));
  const placed = await waitFor('every room recording', 180_000, async () => {
    const list = await getJson<RoomView[]>(`${started[0]!.url}/api/room`);
    return list.length === rooms && list.every((r) => r.recording && r.ownerNode) ? list : undefined;
  });
  phase(`all ${rooms} rooms recording; warming up 5 s, then measuring ${seconds} s`);
  await new Promise((r) => setTimeout(r, 5000));
  const bytes = async () => new Map([...(await sim.counters()).values()].map((c) => [c.roomId, c.bytesServed]));
  const cpu0 = started.map((n) => cpuSeconds(n.pid) ?? 0);
  const bytes0 = await bytes();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const wall = (performance.now() - t0) / 1000;
  const bytes1 = await bytes();
  const rows = started.map((n, i) => {
    const own = placed.filter((r) => r.ownerNode === n.id).map((r) => r.roomId);
    const gb = own.reduce((s, id) => s + (bytes1.get(id)! - bytes0.get(id)!), 0) / 1e9;
    const cpu = (cpuSeconds(n.pid) ?? 0) - cpu0[i]!;
    const rssMiB = (rssKiB(n.pid) ?? 0) / 1024;
    return { node: n.id, rooms: own.length, cpuPercent: (100 * cpu) / wall, cpuSecondsPerGb: gb > 0 ? cpu / gb : null, rssMiB, rssMiBPerRoom: own.length ? rssMiB / own.length : null };
  });
  console.log('| node | rooms | CPU % of a core | CPU-s/GB in | RSS MiB | MiB/room |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.node} | ${r.rooms} | ${r.cpuPercent.toFixed(1)} | ${r.cpuSecondsPerGb?.toFixed(2) ?? '-'} | ${r.rssMiB.toFixed(0)} | ${r.rssMiBPerRoom?.toFixed(1) ?? '-'} |`);
  const out = join(packageRoot, 'bench', 'results');
  mkdirSync(out, { recursive: true });
  // A second run on the same day gets -2, -3, …: earlier results are never overwritten.
  const path = `${freshStem(join(out, `${new Date().toISOString().slice(0, 10)}-cluster-${nodes}n-${rooms}r`))}.json`;
  writeFileSync(path, `${JSON.stringify({ machine, nodes, rooms, bitrateKbps: sim.content?.kbps, seconds: wall, perNode: rows }, null, 2)}\n`);
  phase(`results: ${path}`);
  await Promise.all(started.map((n) => n.stop()));
  await sim.stop();
  await pg.stop();
  removeDir(file.replace(/\/config\.json$/, ''));
}

main().then(() => stopAll(), async (err: unknown) => {
  process.stderr.write(`bench:cluster: ${(err as Error).message}\n`);
  await stopAll();
  await stopPg();
  process.exit(1);
});
