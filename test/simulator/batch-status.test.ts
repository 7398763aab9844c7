// The simulator's batch status endpoint (capture's shape), apiCalls in /_sim/stats, risk control per IP, bulk rooms.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { BilibiliApiClient } from '../../src/bilibili/api-client.js';
import { ApiLimiter } from '../../src/bilibili/api-limiter.js';
import { control, startSim, TEST_BUVID3 } from './helpers.js';

const CAPTURE: any = JSON.parse(readFileSync('test/fixtures/bili-real/api/bac_room_v1_Room_get_status_info_by_uids_uid672328094.json', 'utf8'));
const PATH = '/room/v1/Room/get_status_info_by_uids';

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

describe('simulator batch status endpoint', () => {
  it('answers a map keyed by uid in the capture\'s shape, over GET and POST, leaving unknown uids out', async () => {
    const s = await startSim([{ roomId: 5001, uid: 111, live: true, name: 'a' }, { roomId: 5002, uid: 222 }]);
    close = s.close;
    const cookie = { cookie: `buvid3=${TEST_BUVID3}` };
    const get: any = await (await fetch(`${s.url}${PATH}?uids[]=111&uids[]=222&uids[]=999`, { headers: cookie })).json();
    expect(Object.keys(get)).toEqual(Object.keys(CAPTURE));
    expect(Object.keys(get.data).sort()).toEqual(['111', '222']);
    expect(Object.keys(get.data['111']).sort()).toEqual(Object.keys(CAPTURE.data['672328094']).sort());
    expect(get.data['111']).toMatchObject({ room_id: 5001, uid: 111, live_status: 1, uname: 'a' });
    expect(get.data['222']).toMatchObject({ room_id: 5002, live_status: 0, live_time: 0 });
    const post: any = await (await fetch(`${s.url}${PATH}`, { method: 'POST', headers: { ...cookie, 'content-type': 'application/json' }, body: JSON.stringify({ uids: [222] }) })).json();
    expect(Object.keys(post.data)).toEqual(['222']);
    // Without a buvid3 it is answered: no source shows it refused (docs/bilibili-2026.md, strictness table).
    expect(((await (await fetch(`${s.url}${PATH}?uids[]=111`)).json()) as any).code).toBe(0);
    const stats = (await control(s.url, '/_sim/stats')).json;
    expect(stats.unenforcedHits[`${PATH} buvid3`]).toBe(1);
    expect(stats.batchCalls).toBe(3);
    expect(stats.apiCalls).toBe(3);
  });

  it('the client reads it through the limiter', async () => {
    const s = await startSim([{ roomId: 5101, uid: 333, live: true }]);
    close = s.close;
    const client = new BilibiliApiClient({ liveApiHost: s.url, mainApiHost: s.url }, ApiLimiter.create({ spacingMs: 0 }));
    const map = await client.getStatusByUids([333, 444]);
    expect([...map.keys()]).toEqual([333]);
    expect(map.get(333)).toMatchObject({ roomId: 5101, liveStatus: 1 });
  });

  it('answers 412 to an IP over the risk-control threshold, and creates rooms in bulk', async () => {
    const s = await startSim();
    close = s.close;
    expect((await control(s.url, '/_sim/rooms/bulk', { count: 5000, firstRoomId: 700_000 })).status).toBe(201);
    expect(s.sim.rooms.size).toBe(5000);
    expect((await control(s.url, '/_sim/risk', { perMinute: 3 })).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await fetch(`${s.url}${PATH}?uids[]=7000007`, { headers: { cookie: `buvid3=${TEST_BUVID3}` } })).status);
    expect(statuses).toEqual([200, 200, 200, 412, 412]);
    const stats = (await control(s.url, '/_sim/stats')).json;
    expect(stats).toMatchObject({ riskHits: 2, riskPerMinute: 3, apiCalls: 5, peakApiCallsPerMinute: 5 });
    expect((await control(s.url, '/_sim/risk', { perMinute: -1 })).status).toBe(400);
  });
});
