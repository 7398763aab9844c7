// ≥2,000 random and malformed requests: never a 5xx, always JSON errors, documented answers match the document,
// and work running meanwhile is unharmed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { fuzzAlongside, type BackgroundWork } from './fuzz-harness.js';
import { startFixture, type ApiFixture } from './fixture.js';
import { SchemaChecker } from './schema-check.js';

let fx: ApiFixture;
let checker: SchemaChecker;
const PROTECTED = [5001, 5002];

beforeAll(async () => {
  fx = await startFixture({ rooms: PROTECTED.map((roomId) => ({ roomId, autoRecord: true })) });
  checker = new SchemaChecker((await (await fetch(`${fx.url}/swagger/brec/swagger.json`)).json()) as Record<string, unknown>);
});
afterAll(async () => fx?.close());

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
    // RECORDING HOOK: once rooms record, add a BackgroundWork here that records a protected room from the simulator
    // and asserts in assertUnharmed() that the recording kept going and its file is valid (see fuzz-harness.ts).
    const background: BackgroundWork[] = PROTECTED.map(steadyReader);
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
  });
});
