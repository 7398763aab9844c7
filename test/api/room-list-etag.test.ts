// GET /api/room at scale: ETag and 304, rooms serialised again only when they change, optional page/limit/recording.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, startFixture } from './fixture.js';

describe('room list ETags and paging', () => {
  let f: ApiFixture;
  beforeAll(async () => {
    f = await startFixture({ rooms: Array.from({ length: 30 }, (_, i) => ({ roomId: 5000 + i, autoRecord: i % 2 === 0 })) });
  });
  afterAll(() => f?.close());

  it('answers 304 to a matching If-None-Match, and a new ETag once a room changed', async () => {
    const first = await f.call('GET', '/api/room');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/".+"$/);
    const rooms = (await first.json()) as { roomId: number }[];
    expect(rooms.map((r) => r.roomId)).toEqual(Array.from({ length: 30 }, (_, i) => 5000 + i));
    const again = await f.call('GET', '/api/room', undefined, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    // A change shows at once: the room's autoRecord flips through the API.
    expect((await f.call('POST', '/api/room', { roomId: 5001, autoRecord: true })).status).toBe(200);
    const changed = await f.call('GET', '/api/room', undefined, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(((await changed.json()) as { roomId: number; autoRecord: boolean }[]).find((r) => r.roomId === 5001)!.autoRecord).toBe(true);
    // One room too.
    const one = await f.call('GET', '/api/room/5002');
    expect((await f.call('GET', '/api/room/5002', undefined, { 'if-none-match': one.headers.get('etag')! })).status).toBe(304);
  });

  it('pages and filters when asked, and refuses a bad query with 400', async () => {
    const page = (await (await f.call('GET', '/api/room?limit=10&page=2')).json()) as { roomId: number }[];
    expect(page.map((r) => r.roomId)).toEqual(Array.from({ length: 10 }, (_, i) => 5010 + i));
    expect(await (await f.call('GET', '/api/room?recording=true')).json()).toEqual([]);
    expect(((await (await f.call('GET', '/api/room?recording=false')).json()) as unknown[]).length).toBe(30);
    const bad = await f.call('GET', '/api/room?limit=0');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: number }).code).toBe(-10);
  });
});
