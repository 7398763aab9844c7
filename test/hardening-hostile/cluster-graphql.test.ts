// Issue 36, cluster row: GraphQL addRoom/removeRoom and room mutations on a node that does not own the room behave as REST
// does (two real nodes on a real embedded PostgreSQL): one recorder per room, removeRoom removes the row and its lease.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEntry } from '../../src/paths.js';
import { openDb } from '../../src/cluster/db.js';
import { Simulator, type RunningSimulator } from '../../src/simulator/index.js';
import { FAST } from '../rooms/harness.js';
import { api, type NodeProcess, startNode, startPostgres, until } from '../cluster/harness.js';

const A = 36401;
const B = 36402;

type RoomView = { roomId: number; ownerNode: string | null; recording: boolean };

async function gql(base: string, query: string, variables?: object): Promise<{ status: number; json: any }> {
  const res = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  return { status: res.status, json: await res.json() };
}

describe('cluster GraphQL = cluster REST', () => {
  let pg: Awaited<ReturnType<typeof startPostgres>>;
  let sim: Simulator;
  let running: RunningSimulator;
  const nodes: NodeProcess[] = [];
  const roomsOf = async (n: NodeProcess): Promise<RoomView[]> => (await api(n.url, '/api/room')).json as RoomView[];
  const ownerOf = async (id: number): Promise<string | null> => (await roomsOf(nodes[0]!)).find((r) => r.roomId === id)?.ownerNode ?? null;
  const nodeById = (id: string): NodeProcess => nodes.find((n) => n.id === id)!;
  const other = (id: string): NodeProcess => nodes.find((n) => n.id !== id)!;

  beforeAll(async () => {
    pg = await startPostgres();
    // FLV recording as a logged-in user is served: a guest would record the master playlist's HLS (guest cap, issue 47).
    sim = new Simulator({ guestQnCap: false });
    running = await sim.start();
    for (const roomId of [A, B]) sim.createRoom({ roomId, live: true, bitrateKbps: 300 });
    const file = join(tmpdir(), `liverec-cluster-gql-${process.pid}.json`);
    writeFileSync(file, JSON.stringify({
      version: 3, rooms: [],
      global: Object.fromEntries(Object.entries({ ...FAST, LiveApiHost: running.url }).map(([k, v]) => [k, { HasValue: true, Value: v }])),
    }));
    const imported = spawnSync(process.execPath, [cliEntry, 'cluster', 'import', file, '--cluster', pg.url], { encoding: 'utf8' });
    expect(imported.status, imported.stderr).toBe(0);
    for (const id of ['g1', 'g2']) nodes.push(await startNode(id, pg.url));
    await until(async () => ((await api(nodes[0]!.url, '/api/cluster/nodes')).json as { alive: boolean }[]).filter((n) => n.alive).length === 2, 60_000, 'two live nodes');
  }, 120_000);

  afterAll(async () => {
    for (const n of nodes) n.child.kill('SIGKILL');
    await Promise.all(nodes.map((n) => n.exited));
    await running?.close();
    await pg?.stop();
  }, 60_000);

  it('addRoom on either node: the room is recorded by exactly one node', async () => {
    expect((await gql(nodes[0]!.url, 'mutation { addRoom(roomId: 36401, autoRecord: true) { roomConfig { roomId } } }')).json.data.addRoom.roomConfig.roomId).toBe(A);
    expect((await gql(nodes[1]!.url, 'mutation($id: Int) { addRoom(roomId: $id, autoRecord: true) { roomConfig { roomId } } }', { id: B })).json.data.addRoom.roomConfig.roomId).toBe(B);
    const dup = await gql(nodes[1]!.url, 'mutation { addRoom(roomId: 36401, autoRecord: true) { roomConfig { roomId } } }');
    expect(dup.json.errors[0].extensions.code).toBe('BREC_ROOM_DUPLICATE');
    for (const id of [A, B]) await until(async () => sim.rooms.get(id)!.media.size === 1 && (await ownerOf(id)), 40_000, `room ${id} recording`);
    await new Promise((r) => setTimeout(r, 4000));
    for (const id of [A, B]) {
      expect(sim.rooms.get(id)!.media.size, `room ${id}`).toBe(1);
      expect(sim.rooms.get(id)!.counters.maxStreamOverlapMs, `room ${id}`).toBeLessThan(1500);
    }
  }, 90_000);

  it('stopRecording on the node that does not own the room stops it on its owner', async () => {
    const owner = (await ownerOf(A))!;
    const res = await gql(other(owner).url, 'mutation { stopRecording(roomId: 36401) { autoRecordForThisSession } }');
    expect(res.json.data.stopRecording.autoRecordForThisSession).toBe(false);
    await until(async () => sim.rooms.get(A)!.media.size === 0, 20_000, 'the owner to stop');
  }, 40_000);

  it('removeRoom on the owner removes the row and the lease; on a non-owner it is relayed to the owner', async () => {
    const ownerA = (await ownerOf(A))!;
    expect((await gql(nodeById(ownerA).url, 'mutation { removeRoom(roomId: 36401) { roomConfig { roomId } } }')).json.data.removeRoom.roomConfig.roomId).toBe(A);
    const ownerB = (await ownerOf(B))!;
    const relayed = await gql(other(ownerB).url, 'mutation { removeRoom(roomId: 36402) { roomConfig { roomId } } }');
    expect(relayed.json.data.removeRoom.roomConfig.roomId).toBe(B);
    for (const n of nodes) {
      await until(async () => (await roomsOf(n)).length === 0, 20_000, `no room listed on ${n.id}`);
      const listed = (await api(n.url, '/api/cluster/nodes')).json as { rooms: number[] }[];
      expect(listed.flatMap((x) => x.rooms)).toEqual([]);
    }
    const db = openDb({ url: pg.url, max: 1, timeoutMs: 30_000 });
    try {
      const { rows } = await db.query('SELECT (SELECT count(*) FROM liverec_rooms) AS rooms, (SELECT count(*) FROM liverec_leases) AS leases');
      expect(rows[0]).toEqual({ rooms: '0', leases: '0' });
    } finally {
      await db.end();
    }
    await until(async () => sim.rooms.get(B)!.media.size === 0, 20_000, 'room B no longer recorded');
    expect(sim.rooms.get(A)!.media.size).toBe(0);
  }, 60_000);
});
