// One live detector and one API budget per cluster: 3 nodes on real PostgreSQL call the simulator as often as 1 node.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEntry } from '../../src/paths.js';
import { Simulator, type RunningSimulator } from '../../src/simulator/index.js';
import { FAST } from '../rooms/harness.js';
import { api, type NodeProcess, startNode, startPostgres, until } from './harness.js';

const ROOMS = Array.from({ length: 60 }, (_, i) => 41001 + i);
/** The cluster's budget for the whole test: low enough that three nodes each with their own would show above it. */
const BUDGET = 40;
const WINDOW_MS = 36_000;

type RoomView = { roomId: number; ownerNode: string | null; recording: boolean; streaming: boolean };

describe('one live detector and one API budget for a 3-node cluster', () => {
  let postgres: Awaited<ReturnType<typeof startPostgres>>;
  let db: pg.Pool;
  let sim: Simulator;
  let running: RunningSimulator;
  const nodes = new Map<string, NodeProcess>();
  let oneNodeCalls = 0;

  const apiCalls = async (): Promise<number> => ((await (await fetch(`${running.url}/_sim/stats`)).json()) as { apiCalls: number }).apiCalls;
  const callsOver = async (ms: number): Promise<number> => {
    const before = await apiCalls();
    await new Promise((r) => setTimeout(r, ms));
    return (await apiCalls()) - before;
  };
  const holder = async (): Promise<string | null> =>
    (await db.query<{ node_id: string }>("SELECT node_id FROM liverec_singletons WHERE name = 'detector' AND expires_at > now()")).rows[0]?.node_id ?? null;
  const detected = async (): Promise<number> => Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM liverec_detected')).rows[0]!.n);
  const roomsOf = async (base: string): Promise<RoomView[]> => (await api(base, '/api/room')).json as RoomView[];
  const start = async (id: string): Promise<void> => { nodes.set(id, await startNode(id, postgres.url)); };

  beforeAll(async () => {
    postgres = await startPostgres();
    db = new pg.Pool({ connectionString: postgres.url, max: 2 });
    // An idle connection the server ends (its stop at teardown) is an 'error' event of the pool: without a listener, an uncaught one.
    db.on('error', () => undefined);
    // Risk control as the service's (60 calls a minute per IP): every node calls from 127.0.0.1, so the cluster counts as one.
    // FLV as to a logged-in user (media.size counts FLV responses; a guest records the master playlist's HLS, issue 47).
    sim = new Simulator({ riskPerMinute: 60, guestQnCap: false });
    running = await sim.start();
    for (const roomId of ROOMS) sim.createRoom({ roomId, live: false, bitrateKbps: 300 });
    const file = join(tmpdir(), `liverec-cluster-detect-${process.pid}.json`);
    writeFileSync(file, JSON.stringify({
      version: 3,
      global: Object.fromEntries(Object.entries({ ...FAST, ApiBudgetPerMinute: BUDGET, LiveApiHost: running.url }).map(([k, v]) => [k, { HasValue: true, Value: v }])),
      rooms: ROOMS.map((id) => ({ RoomId: { HasValue: true, Value: id }, AutoRecord: { HasValue: true, Value: true } })),
    }));
    const imported = spawnSync(process.execPath, [cliEntry, 'cluster', 'import', file, '--cluster', postgres.url], { encoding: 'utf8' });
    expect(imported.stdout).toContain(`imported ${ROOMS.length} room(s)`);
  }, 120_000);

  afterAll(async () => {
    for (const n of nodes.values()) n.child.kill('SIGKILL');
    await Promise.all([...nodes.values()].map((n) => n.exited));
    await db?.end();
    await running?.close();
    await postgres?.stop();
  }, 60_000);

  it('one node: its detector checks all rooms with batch calls', async () => {
    await start('n1');
    await until(async () => (await roomsOf(nodes.get('n1')!.url)).filter((r) => r.ownerNode === 'n1').length === ROOMS.length, 90_000, 'n1 to hold every room');
    await until(async () => (await detected()) === ROOMS.length, 90_000, 'a status row for every room');
    expect(await holder()).toBe('n1');
    oneNodeCalls = await callsOver(WINDOW_MS);
    // One batch call every 6 s covers all 60 rooms.
    expect(oneNodeCalls).toBeGreaterThanOrEqual(3);
    expect(oneNodeCalls).toBeLessThanOrEqual(10);
  }, 240_000);

  it('three nodes: the rooms spread, one detector runs, and the cluster calls as often as one node did', async () => {
    await Promise.all([start('n2'), start('n3')]);
    await until(async () => {
      const rooms = await roomsOf(nodes.get('n1')!.url);
      return ['n1', 'n2', 'n3'].every((id) => rooms.filter((r) => r.ownerNode === id).length >= 10);
    }, 120_000, 'the rooms to spread over three nodes');
    const peakBefore = ((await (await fetch(`${running.url}/_sim/stats`)).json()) as { peakApiCallsPerMinute: number }).peakApiCallsPerMinute;
    const threeNodeCalls = await callsOver(WINDOW_MS);
    console.info(`api calls in ${WINDOW_MS / 1000} s for ${ROOMS.length} idle rooms: 1 node ${oneNodeCalls}, 3 nodes ${threeNodeCalls}`);
    expect(await holder()).toBe('n1');
    const listed = (await api(nodes.get('n2')!.url, '/api/cluster/nodes')).json as { nodeId: string; detector: boolean }[];
    expect(listed.filter((n) => n.detector).map((n) => n.nodeId)).toEqual(['n1']);
    expect(threeNodeCalls).toBeGreaterThanOrEqual(oneNodeCalls - 2);
    expect(threeNodeCalls).toBeLessThanOrEqual(oneNodeCalls + 2);
    const stats = (await (await fetch(`${running.url}/_sim/stats`)).json()) as { peakApiCallsPerMinute: number; riskHits: number };
    expect(Math.max(peakBefore, stats.peakApiCallsPerMinute)).toBeLessThanOrEqual(BUDGET);
    expect(stats.riskHits).toBe(0);
  }, 240_000);

  it('a room going live is recorded by the node that owns it, not by the detector\'s node', async () => {
    const rooms = await roomsOf(nodes.get('n1')!.url);
    const target = rooms.find((r) => r.ownerNode === 'n3' && !r.recording)!.roomId;
    sim.setLive(target, true);
    await until(async () => {
      const view = (await roomsOf(nodes.get('n3')!.url)).find((r) => r.roomId === target)!;
      return view.recording && view.ownerNode === 'n3';
    }, 90_000, `room ${target} recording on n3`);
    expect(sim.rooms.get(target)!.media.size).toBe(1);
  }, 120_000);

  it('kill -9 of the detector\'s node: another node takes the detector over and live rooms are still recorded', async () => {
    const n1 = nodes.get('n1')!;
    n1.child.kill('SIGKILL');
    await n1.exited;
    nodes.delete('n1');
    const next = await until(async () => { const h = await holder(); return h && h !== 'n1' ? h : undefined; }, 90_000, 'another node to run the detector');
    expect(['n2', 'n3']).toContain(next);
    // n1's rooms move too; then a room that goes live on either survivor is found by the new detector.
    await until(async () => (await roomsOf(nodes.get('n2')!.url)).every((r) => r.ownerNode === 'n2' || r.ownerNode === 'n3'), 90_000, 'n1\'s rooms to move');
    const rooms = await roomsOf(nodes.get('n2')!.url);
    const target = rooms.find((r) => !r.recording && r.ownerNode !== next)!;
    sim.setLive(target.roomId, true);
    await until(async () => {
      const view = (await roomsOf(nodes.get(target.ownerNode!)!.url)).find((r) => r.roomId === target.roomId)!;
      return view.recording && view.ownerNode === target.ownerNode;
    }, 90_000, `room ${target.roomId} recording on ${target.ownerNode}`);
    // Two nodes now, still one detector: the same call rate as before (plus the live rooms' own calls, spaced by the budget).
    const stats = (await (await fetch(`${running.url}/_sim/stats`)).json()) as { riskHits: number; peakApiCallsPerMinute: number };
    expect(stats.riskHits).toBe(0);
    expect(stats.peakApiCallsPerMinute).toBeLessThanOrEqual(BUDGET);
  }, 240_000);
});
