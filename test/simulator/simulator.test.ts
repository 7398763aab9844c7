// The simulator's control API, raw JSON shapes and per-room bitrates, over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStream } from '../../src/bilibili/stream-download.js';
import { collect, control, liveFetch, startSim, waitFor } from './helpers.js';

let sim: Awaited<ReturnType<typeof startSim>>;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(() => sim.close());

const flvUrl = (roomId: number, session = 1) => `${sim.url}/live-bvc/${session}/live_${roomId}_${session}.flv?qn=10000`;

describe('control API', () => {
  it('creates, reads, and deletes rooms', async () => {
    const created = await control(sim.url, '/_sim/rooms', { roomId: 20001, shortId: 21, name: 'alice', title: 't', live: true, bitrateKbps: 800 });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ roomId: 20001, shortId: 21, name: 'alice', title: 't', live: true, liveStatus: 1, bitrateKbps: 800 });
    expect((await control(sim.url, '/_sim/rooms', { roomId: 20001 })).status).toBe(409);
    expect((await control(sim.url, '/_sim/rooms', { roomId: 20002, shortId: 21 })).status).toBe(409);
    const bad = await control(sim.url, '/_sim/rooms', { roomId: 'x', live: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/roomId/);
    expect((await control(sim.url, '/_sim/rooms', undefined)).json.map((r: { roomId: number }) => r.roomId)).toContain(20001);

    await liveFetch(sim.url, '/xlive/web-room/v1/index/getInfoByRoom', { room_id: 21 });
    const got = await control(sim.url, '/_sim/rooms/20001');
    expect(got.json.counters.apiHits).toMatchObject({ total: 1, getInfoByRoom: 1 });
    expect(got.json.apiLog[0].query).toMatch(/^\?room_id=21&wts=\d+&w_rid=[0-9a-f]{32}$/);

    expect((await control(sim.url, '/_sim/rooms/20001', undefined, 'DELETE')).status).toBe(204);
    expect((await control(sim.url, '/_sim/rooms/20001')).status).toBe(404);
    expect((await control(sim.url, '/_sim/rooms/20001/live', { live: true })).status).toBe(404);
  });

  it('rejects bad faults and actions with 400/404, lists and clears pending faults', async () => {
    await control(sim.url, '/_sim/rooms', { roomId: 20010, live: true });
    expect((await control(sim.url, '/_sim/rooms/20010/faults', { kind: 'meteor' })).status).toBe(400);
    expect((await control(sim.url, '/_sim/rooms/20010/faults', { kind: 'stall', afterMs: -5 })).status).toBe(400);
    expect((await control(sim.url, '/_sim/rooms/20010/live', { live: 'on' })).status).toBe(400);
    expect((await control(sim.url, '/_sim/rooms/20010/explode', {})).status).toBe(404);
    const bodyRes = await fetch(`${sim.url}/_sim/rooms/20010/title`, { method: 'POST', body: '{oops' });
    expect(bodyRes.status).toBe(400);
    const armed = await control(sim.url, '/_sim/rooms/20010/faults', { kind: 'stream-404', count: 3 });
    expect(armed.json).toEqual({ kind: 'stream-404', appliedToOpen: 0, pending: 3 });
    await control(sim.url, '/_sim/rooms/20010/faults', { kind: 'api412', durationMs: 60_000 });
    expect((await control(sim.url, '/_sim/rooms/20010')).json.pendingFaults.map((f: { kind: string }) => f.kind)).toEqual(['api412', 'stream-404']);
    expect((await control(sim.url, '/_sim/rooms/20010/faults', undefined, 'DELETE')).status).toBe(204);
    expect((await control(sim.url, '/_sim/rooms/20010')).json.pendingFaults).toEqual([]);
    const ok = await fetch(flvUrl(20010));
    expect(ok.status).toBe(200);
    await ok.body?.cancel();
  });
});

describe('API answers', () => {
  it('send JSON envelopes like the service (msg on /room/v1, 1002002 for bad ids)', async () => {
    await control(sim.url, '/_sim/rooms', { roomId: 20020, shortId: 22, live: false });
    const init = await liveFetch(sim.url, '/room/v1/Room/room_init', { id: 22 }, { sign: false });
    expect(init.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await init.json()).toMatchObject({ code: 0, msg: 'ok', message: 'ok', data: { room_id: 20020, live_status: 0, live_time: -62170012800 } });
    const badId = await (await liveFetch(sim.url, '/xlive/web-room/v1/index/getInfoByRoom', { room_id: 'abc' })).json();
    expect(badId).toMatchObject({ code: 1002002, ttl: 1, data: null });
    // Play info and danmaku info need the real id, like the service.
    expect(await (await liveFetch(sim.url, '/xlive/web-room/v2/index/getRoomPlayInfo', { room_id: 22, qn: 10000 })).json()).toMatchObject({ code: 19002000 });
    const filtered: any = await (await liveFetch(sim.url, '/xlive/web-room/v2/index/getRoomPlayInfo', { room_id: 20020, protocol: 0, format: 0, codec: 0 })).json();
    expect(filtered.data.playurl_info).toBeNull();
    expect((await fetch(`${sim.url}/nowhere`)).status).toBe(404);
  });

  it('filters play info by protocol, format and codec, and answers offered qn', async () => {
    await control(sim.url, '/_sim/rooms', { roomId: 20030, live: true, hevc: true, acceptQn: [10000, 150] });
    const get = async (q: string): Promise<any> =>
      ((await (await liveFetch(sim.url, '/xlive/web-room/v2/index/getRoomPlayInfo', { room_id: 20030, ...Object.fromEntries(new URLSearchParams(q)) })).json()) as any).data.playurl_info.playurl.stream;
    const onlyFlv = await get('protocol=0&format=0&codec=0,1&qn=150');
    expect(onlyFlv).toHaveLength(1);
    expect(onlyFlv[0].format[0].codec.map((c: { codec_name: string; current_qn: number }) => [c.codec_name, c.current_qn])).toEqual([['avc', 150], ['hevc', 150]]);
    const unknownQn = await get('protocol=0,1&format=0,1,2&codec=0&qn=400');
    expect(unknownQn[0].format[0].codec[0].current_qn).toBe(10000);
    expect(unknownQn[1].format.map((f: { format_name: string }) => f.format_name)).toEqual(['ts', 'fmp4']);
    // HLS entries are served too (live playlists, see test/hls/).
    const playlist = await fetch(`${sim.url}${unknownQn[1].format[0].codec[0].base_url}x=1`);
    expect(playlist.status).toBe(200);
    expect(await playlist.text()).toMatch(/^#EXTM3U/);
  });
});

describe('media', () => {
  it('pads to each room bitrate only when asked (padWithFiller; 6 Mbps reachable)', async () => {
    await control(sim.url, '/_sim/rooms', { roomId: 20040, live: true, bitrateKbps: 500, padWithFiller: true });
    await control(sim.url, '/_sim/rooms', { roomId: 20041, live: true, bitrateKbps: 6000, padWithFiller: true });
    await control(sim.url, '/_sim/rooms', { roomId: 20042, live: true, bitrateKbps: 6000 });
    const [low, high, plain] = await Promise.all([20040, 20041, 20042].map(async (id) => collect(await openStream(flvUrl(id)), 2000)));
    // 2 s + the 1 s start burst at 6 Mbps ≈ 2.25 MB; generous bounds for a noisy machine.
    expect(high!.data.length).toBeGreaterThan(1_200_000);
    expect(high!.data.length / low!.data.length).toBeGreaterThan(5);
    // Not padded: the committed 360p clip at its own ~0.4 Mbps, whatever bitrate was asked for.
    expect(plain!.data.length).toBeLessThan(high!.data.length / 5);
  });

  it('answers 404 for offline and unknown rooms; deleting a room ends its streams', async () => {
    await control(sim.url, '/_sim/rooms', { roomId: 20050, live: false });
    expect((await fetch(flvUrl(20050))).status).toBe(404);
    expect((await fetch(flvUrl(29999))).status).toBe(404);
    await control(sim.url, '/_sim/rooms/20050/live', { live: true });
    const d = await openStream(flvUrl(20050, 2));
    setTimeout(() => void control(sim.url, '/_sim/rooms/20050', undefined, 'DELETE'), 200);
    const { error, data } = await collect(d, 5000);
    expect(error).toBeNull();
    expect(data.length).toBeGreaterThan(0);
    const stats = await control(sim.url, '/_sim/stats');
    expect(stats.json).toMatchObject({ rooms: expect.any(Number), openStreams: expect.any(Number), bytesServed: expect.any(Number) });
    await waitFor(() => sim.sim.pacer.size === 0, 3000, 'pacer to drop closed streams');
  });
});
