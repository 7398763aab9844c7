// Batched GraphQL (a JSON array of operations), as brec's server accepts: an array answer, in order, each operation
// under the single-request limits, a cap on the batch length, and the cross-origin rule for every operation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BATCH } from '../../src/api/graphql/route.js';
import { startFixture, type ApiFixture } from '../api/fixture.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('GraphQL batches', () => {
  let fx: ApiFixture;
  beforeAll(async () => {
    fx = await startFixture({ rooms: [{ roomId: 7001, autoRecord: false }] });
  });
  afterAll(() => fx.close());

  it('answers an array with an array, in order, mutations included', async () => {
    const res = await fx.call('POST', '/graphql', [
      { query: '{ rooms { roomConfig { roomId } } }' },
      { query: 'mutation { addRoom(roomId: 7002, autoRecord: false) { roomConfig { roomId } } }' },
      { query: 'query two { rooms { roomConfig { roomId } } }', operationName: 'two' },
    ]);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json[];
    expect(body).toHaveLength(3);
    expect(body[0].data.rooms.map((r: Json) => r.roomConfig.roomId)).toEqual([7001]);
    expect(body[1].data.addRoom.roomConfig.roomId).toBe(7002);
    expect(body[2].data.rooms.map((r: Json) => r.roomConfig.roomId)).toEqual([7001, 7002]);
  });

  it('answers each bad operation with its own error, the others still run', async () => {
    const res = await fx.call('POST', '/graphql', [
      { query: '{ rooms { noSuchField } }' },
      { query: 'x'.repeat(10) + ' {' },
      { query: `{ ${'rooms { objectId } '.repeat(6000)}}` },
      'not an object',
      { query: '{ version { major } }' },
    ]);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json[];
    expect(body).toHaveLength(5);
    expect(body[0].errors[0].message).toMatch(/noSuchField/);
    expect(body[1].errors.length).toBeGreaterThan(0);
    expect(body[2].errors[0].message).toMatch(/token/i);
    expect(body[3]).toMatchObject({ code: -10 });
    expect(body[4].data.version.major).toEqual(expect.any(String));
  });

  it('refuses an empty batch and one over the cap with 400, running nothing', async () => {
    const empty = await fx.call('POST', '/graphql', []);
    expect(empty.status).toBe(400);
    const add = { query: 'mutation { addRoom(roomId: 7100, autoRecord: false) { objectId } }' };
    const over = await fx.call('POST', '/graphql', Array.from({ length: MAX_BATCH + 1 }, () => add));
    expect(over.status).toBe(400);
    expect(((await over.json()) as Json).message).toContain(String(MAX_BATCH));
    expect(fx.recorder.findRoom(7100)).toBeUndefined();
  });

  it('refuses a batch from a foreign origin', async () => {
    const res = await fx.call('POST', '/graphql', [{ query: 'mutation { addRoom(roomId: 7200, autoRecord: false) { objectId } }' }], { origin: 'http://evil.test' });
    expect(res.status).toBe(403);
    expect(fx.recorder.findRoom(7200)).toBeUndefined();
  });
});
