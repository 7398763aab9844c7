// Issue 45 (model seed 2054054501): a room that REST showed and that is removed before the event stream's next tick is
// still announced as removed; a client seeded from GET /api/room would otherwise keep it for ever.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SseClient } from './sse-client.js';
import { simRooms, startWebSetup, type WebSetup } from './setup.js';

const ROOM = 45_601;

describe('GET /api/events and a room removed at once', () => {
  let s: WebSetup;
  beforeAll(async () => {
    s = await startWebSetup({ rooms: simRooms([ROOM]), record: [] });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('sends room-removed for a room listed and removed within one tick', async () => {
    const sse = await SseClient.connect(`${s.url}/api/events`);
    try {
      await sse.waitFor('hello', (f) => f.event === 'hello');
      const add = await fetch(`${s.url}/api/room`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ roomId: ROOM, autoRecord: false }) });
      expect(add.status).toBe(200);
      // A page that (re)loads now learns the room from REST, before any `room` frame names it.
      const listed = (await (await fetch(`${s.url}/api/room`)).json()) as { roomId: number; objectId: string }[];
      const room = listed.find((r) => r.roomId === ROOM)!;
      expect(room).toBeDefined();
      expect((await fetch(`${s.url}/api/room/${ROOM}`, { method: 'DELETE' })).status).toBe(200);
      const removed = await sse.waitFor('room-removed', (f) => f.event === 'room-removed' && (JSON.parse(f.data) as { roomId: number }).roomId === ROOM);
      expect(JSON.parse(removed.data)).toEqual({ objectId: room.objectId, roomId: ROOM });
    } finally {
      sse.close();
    }
  }, 60_000);
});
