// Room identity: a short id and its real id are one room (resolved before insertion, or merged when a room learns it
// later), adds are serialised, DELETE ends the stream, MaxRooms refuses adds, and an add never waits for a thread.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { initLogger } from '../../src/log/logger.js';
import { Recorder } from '../../src/rooms/recorder.js';
import { startService } from '../../src/service.js';
import { startSim, waitFor } from '../simulator/helpers.js';

initLogger({ level: 'silent' });
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(global: Record<string, unknown> = {}) {
  const sim = await startSim([{ roomId: 10005, shortId: 5, live: true, guestQnCap: false }]); // FLV as to a logged-in user (a guest records HLS, issue 47)
  cleanups.push(sim.close);
  const dir = mkdtempSync(join(tmpdir(), 'liverec-ident-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const config = ConfigStore.load(dir);
  Object.assign(config.global, { LiveApiHost: sim.url, ...global });
  const simRoom = sim.sim.rooms.get(10005);
  return { sim, dir, config, openStreams: () => [...(simRoom?.media ?? [])].filter((m) => m.open).length };
}

const savedIds = (dir: string): number[] =>
  (JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).rooms as { RoomId: { Value: number } }[]).map((r) => r.RoomId.Value);

it('POST {roomId: 5} and {roomId: 10005} at once: one room 10005, listed and saved once; DELETE by the short id ends the stream', async () => {
  const { dir, config, openStreams } = await setup();
  const service = await startService({ workDir: dir, config, api: { bind: 'http://127.0.0.1:0', env: {} } });
  cleanups.push(() => service.close());
  const post = (roomId: number) =>
    fetch(`${service.api!.url}/api/room`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ roomId, autoRecord: true }) })
      .then(async (r) => ({ status: r.status, json: (await r.json()) as any }));
  const answers = await Promise.all([post(5), post(10005), post(5)]);
  expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
  expect(new Set(answers.map((a) => a.json.objectId)).size).toBe(1);
  expect(answers.map((a) => a.json.roomId)).toEqual([10005, 10005, 10005]);
  expect(savedIds(dir)).toEqual([10005]);
  const room = service.recorder.findRoom(10005)!;
  await waitFor(() => room.state.recording && openStreams() === 1, 60_000, 'recording');

  const del = await fetch(`${service.api!.url}/api/room/5`, { method: 'DELETE' });
  expect(del.status).toBe(200);
  expect(service.recorder.rooms).toEqual([]);
  await waitFor(() => openStreams() === 0, 30_000, 'the stream to end');
  expect(savedIds(dir)).toEqual([]);
  expect(() => ConfigStore.load(dir)).not.toThrow();
});

for (const roomsPerWorker of [1, 2]) {
  it(`when the live API could not resolve the short id at add time, the room that learns it later is merged (${roomsPerWorker} per thread)`, async () => {
    const { dir, config, openStreams } = await setup();
    config.save();
    const recorder = new Recorder({ workDir: dir, config, roomsPerWorker, resolveRoomId: async () => null });
    cleanups.push(() => recorder.close(2000));
    await recorder.start();
    await Promise.all([recorder.addRoom(10005, true), recorder.addRoom(5, true)]);
    await waitFor(() => recorder.rooms.length === 1 && recorder.rooms[0]!.state.recording, 50_000, 'one recording room');
    expect(recorder.rooms[0]!.roomId).toBe(10005);
    await waitFor(() => openStreams() === 1 && savedIds(dir).length === 1, 30_000, 'a single stream');
    expect(savedIds(dir)).toEqual([10005]);
    await recorder.removeRoom(recorder.rooms[0]!);
    await waitFor(() => openStreams() === 0, 30_000, 'the stream to end');
  });
}

it('MaxRooms: adds beyond it get 409 {code: -19}; existing rooms are still returned', async () => {
  const { dir, config } = await setup({ MaxRooms: 2 });
  const service = await startService({ workDir: dir, config, api: { bind: 'http://127.0.0.1:0', env: {} } });
  cleanups.push(() => service.close());
  const post = (roomId: number) =>
    fetch(`${service.api!.url}/api/room`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ roomId }) })
      .then(async (r) => ({ status: r.status, json: (await r.json()) as any }));
  expect((await post(1)).status).toBe(200);
  expect((await post(2)).status).toBe(200);
  const third = await post(3);
  expect(third.status).toBe(409);
  expect(third.json).toMatchObject({ code: -19, message: expect.stringContaining('MaxRooms') });
  expect((await post(2)).status).toBe(200);
  expect(savedIds(dir)).toEqual([1, 2]);
});

it('an add resolves before its thread has even started (no macrotask in between)', async () => {
  const { dir, config } = await setup();
  const recorder = new Recorder({ workDir: dir, config, resolveRoomId: async () => null });
  cleanups.push(() => recorder.close(2000));
  await recorder.start();
  const order: string[] = [];
  const added = recorder.addRoom(4242, false).then(() => order.push('added'));
  // A thread start needs at least one message from the worker: a macrotask, so after this immediate.
  await new Promise<void>((resolve) => setImmediate(() => (order.push('immediate'), resolve())));
  await added;
  expect(order).toEqual(['added', 'immediate']);
  await waitFor(() => recorder.workerCount === 1, 30_000, 'the thread');
});
