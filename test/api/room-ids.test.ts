// Every per-room route takes both id forms: room id / short id, and objectId in each GUID form brec accepts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type ApiFixture } from './fixture.js';

let fx: ApiFixture;
let objectId: string;

const ROUTES: [method: string, suffix: string, body?: unknown][] = [
  ['GET', ''], ['GET', '/stats'], ['GET', '/ioStats'], ['GET', '/config'], ['POST', '/config', {}],
  ['POST', '/start'], ['POST', '/stop'], ['POST', '/split'], ['POST', '/refresh'],
];

beforeAll(async () => {
  fx = await startFixture({ rooms: [{ roomId: 2001, autoRecord: false }, { roomId: 2002, autoRecord: false }, { roomId: 2003, autoRecord: false }] });
  objectId = fx.recorder.findRoom(2002)!.objectId;
});
afterAll(async () => fx?.close());

const forms = (id: string): string[] => {
  const n = id.replace(/-/g, '');
  return [id, id.toUpperCase(), n, `{${id}}`, `(${id})`, encodeURIComponent(`{${id}}`)];
};

describe('per-room id forms', () => {
  it.each(ROUTES)('%s /api/room/{id}%s accepts the room id and every objectId form', async (method, suffix, body) => {
    for (const id of ['2002', ' 2002', '+2002', ...forms(objectId)]) {
      const res = await fx.call(method, `/api/room/${id}${suffix}`, body);
      expect(res.status, `${method} ${id}${suffix}`).toBe(200);
      const json = await res.json() as Record<string, unknown>;
      if (suffix === '' || ['/start', '/stop', '/split', '/refresh'].includes(suffix)) {
        expect(json.roomId).toBe(2002);
        expect(json.objectId).toBe(objectId);
      }
    }
  });

  it.each(ROUTES)('%s /api/room/{id}%s: unknown → 404 {code:-4}, id ≤ 0 → 400 {code:-2}', async (method, suffix, body) => {
    for (const id of ['4242', '2147483647', '00000000-0000-0000-0000-000000000000', 'abc', '99999999999', '1.5']) {
      const res = await fx.call(method, `/api/room/${id}${suffix}`, body);
      expect(res.status, `${method} ${id}${suffix}`).toBe(404);
      expect(await res.json()).toEqual({ code: -4, message: 'Room not found' });
    }
    for (const id of ['0', '-1', '-2147483648']) {
      const res = await fx.call(method, `/api/room/${id}${suffix}`, body);
      expect(res.status, `${method} ${id}${suffix}`).toBe(400);
      expect(await res.json()).toEqual({ code: -2, message: 'Roomid must be greater than 0.' });
    }
  });

  it('a numeric id also matches the short id, first room in list order', async () => {
    const room = fx.recorder.findRoom(2003)!;
    room.apply({ state: { shortId: 77 } });
    expect(((await (await fx.call('GET', '/api/room/77')).json()) as { roomId: number }).roomId).toBe(2003);
    // POST /api/room with a short id returns the existing room instead of adding one.
    const res = await fx.call('POST', '/api/room', { roomId: 77, autoRecord: true });
    expect(((await res.json()) as { roomId: number; autoRecord: boolean })).toMatchObject({ roomId: 2003, autoRecord: true });
    expect(fx.recorder.rooms).toHaveLength(3);
  });

  it('DELETE takes both forms', async () => {
    const a = await fx.call('DELETE', `/api/room/{${fx.recorder.findRoom(2001)!.objectId.toUpperCase()}}`);
    expect(a.status).toBe(200);
    expect(((await a.json()) as { roomId: number }).roomId).toBe(2001);
    const b = await fx.call('DELETE', '/api/room/2003');
    expect(b.status).toBe(200);
    expect(fx.recorder.rooms.map((r) => r.roomId)).toEqual([2002]);
    expect((await fx.call('DELETE', '/api/room/2003')).status).toBe(404);
  });
});
