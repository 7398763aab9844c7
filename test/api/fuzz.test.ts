// ≥2,000 random and malformed requests: never a 5xx, always JSON errors, documented answers match the document,
// and work running meanwhile is unharmed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { fuzzAlongside, type BackgroundWork } from './fuzz-harness.js';
import { startFixture, type ApiFixture } from './fixture.js';
import { SchemaChecker } from './schema-check.js';
import { Simulator, type RunningSimulator } from '../../src/simulator/index.js';
import type { FileClosedData, RecorderEvent } from '../../src/events/types.js';
import { probe } from '../support/media-tools.js';

let fx: ApiFixture;
let checker: SchemaChecker;
let sim: Simulator;
let simRun: RunningSimulator;
const PROTECTED = [5001, 5002];
const events: RecorderEvent[] = [];

beforeAll(async () => {
  sim = new Simulator();
  simRun = await sim.start();
  for (const roomId of PROTECTED) sim.createRoom({ roomId, name: `fuzz-${roomId}`, live: true, bitrateKbps: 1000 });
  fx = await startFixture({ rooms: PROTECTED.map((roomId) => ({ roomId, autoRecord: true })), liveApiHost: simRun.url });
  fx.recorder.bus.on((e) => events.push(e));
  checker = new SchemaChecker((await (await fetch(`${fx.url}/swagger/brec/swagger.json`)).json()) as Record<string, unknown>);
});
afterAll(async () => {
  await fx?.close();
  await simRun?.close();
});

/** Waits until both protected rooms record, then checks the fuzz neither interrupted them nor slowed them down. */
function recordingUnharmed(): BackgroundWork {
  const media = (): number[] => PROTECTED.map((id) => fx.recorder.findRoom(id)!.recordingStats.sessionMaxTimestamp);
  // What the simulator served them: a yardstick that slows down with the machine, unlike the wall clock.
  const served = (): number[] => PROTECTED.map((id) => sim.rooms.get(id)!.counters.mediaMsServed);
  let before: number[] = [];
  let servedBefore: number[] = [];
  let from = 0;
  return {
    name: 'recording of the protected rooms',
    start: async () => {
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && media().some((m) => m < 2000)) await new Promise((r) => setTimeout(r, 100));
      before = media();
      servedBefore = served();
      from = events.length;
    },
    assertUnharmed: async () => {
      const after = media();
      const servedAfter = served();
      PROTECTED.forEach((id, i) => {
        const room = fx.recorder.findRoom(id)!;
        expect(room.state.recording, `room ${id} recording`).toBe(true);
        // Media time advances a GOP (~2 s) at a time: allow two GOPs of quantisation. A stall would add nothing while
        // the simulator keeps serving into the socket buffers (up to its 2 MiB backlog).
        const servedMs = servedAfter[i]! - servedBefore[i]!;
        expect(after[i]! - before[i]!, `room ${id} media recorded while ${servedMs} ms were served`).toBeGreaterThan(0.95 * servedMs - 4000);
      });
      expect(events.slice(from).map((e) => e.EventType)).toEqual([]); // no file closed, no session ended
    },
    stop: async () => undefined,
  };
}

/** Reads a protected room over the API all along; every answer must be a documented 200 for the same room. */
function steadyReader(roomId: number): BackgroundWork {
  let timer: NodeJS.Timeout | undefined;
  let reads = 0;
  const problems: string[] = [];
  let objectId = '';
  let running: Promise<void> = Promise.resolve();
  return {
    name: `reader of room ${roomId}`,
    start: async () => {
      objectId = fx.recorder.findRoom(roomId)!.objectId;
      const tick = async (): Promise<void> => {
        try {
          const res = await fetch(`${fx.url}/api/room/${roomId}`);
          const body = (await checker.expectDocumented(res, 'GET', '/api/room/{id}')) as { objectId: string };
          if (res.status !== 200 || body.objectId !== objectId) problems.push(`status ${res.status}, objectId ${body.objectId}`);
          reads++;
        } catch (err) {
          problems.push((err as Error).message);
        }
      };
      const loop = (): void => {
        running = tick().then(() => { timer = setTimeout(loop, 20); });
      };
      loop();
    },
    assertUnharmed: async () => {
      await running;
      expect(problems).toEqual([]);
      expect(reads).toBeGreaterThan(10);
    },
    stop: async () => {
      clearTimeout(timer);
      await running;
      clearTimeout(timer);
    },
  };
}

describe('API fuzz', () => {
  it('2,400 random and malformed requests: no 5xx, JSON errors, document respected, protected rooms untouched', async () => {
    const background: BackgroundWork[] = [recordingUnharmed(), ...PROTECTED.map(steadyReader)];
    const report = await fuzzAlongside(fx.url, checker, {
      requests: 2_400,
      seed: Number(process.env.LIVEREC_FUZZ_SEED ?? 20240317),
      concurrency: 16,
      roomPool: [3001, 3002, 3003],
      protectedRoomIds: PROTECTED,
      objectIds: fx.recorder.rooms.map((r) => r.objectId),
    }, background);

    expect(report.failures).toEqual([]);
    expect(report.violations).toEqual([]);
    expect(report.sent).toBe(2_400);
    // The mix really exercised success and the error paths.
    for (const status of [200, 400, 404, 405, 413]) expect(report.byStatus[status] ?? 0, `status ${status}`).toBeGreaterThan(0);

    for (const id of PROTECTED) {
      const room = fx.recorder.findRoom(id)!;
      expect(room.autoRecord).toBe(true);
      expect(room.state.autoRecordForThisSession).toBe(true);
      expect(room.entry.overrides).toEqual({});
    }
    // The saved config is still a valid brec config.
    expect(() => ConfigStore.load(fx.workDir)).not.toThrow();
    expect((await fetch(`${fx.url}/api/room`)).status).toBe(200);

    // The recordings made during the fuzz close into valid files.
    await fx.recorder.close(3000);
    const closed = events.filter((e) => e.EventType === 'FileClosed').map((e) => e.EventData as FileClosedData);
    expect(closed.map((c) => c.RoomId).sort()).toEqual(PROTECTED);
    for (const c of closed) expect((await probe(`${fx.workDir}/${c.RelativePath}`)).errors).toBe('');
  });
});
