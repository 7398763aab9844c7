// POST /_sim/rooms/{id}/captured: real captures replayed with the room's ids and the simulator's stream URLs (query kept).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BilibiliApiClient } from '../../src/bilibili/api-client.js';
import { ApiLimiter } from '../../src/bilibili/api-limiter.js';
import { DanmakuClient } from '../../src/bilibili/danmaku/client.js';
import { openStream } from '../../src/bilibili/stream-download.js';
import { resolveStreamUrl } from '../../src/bilibili/stream-url.js';
import { collect, control, liveFetch, startSim, waitFor } from './helpers.js';

const REAL = 'test/fixtures/bili-real/';
const json = (name: string): unknown => JSON.parse(readFileSync(REAL + name, 'utf8'));
const PLAY = 'api/rustsrec_getRoomPlayInfo_room22908869_2025-07_flv_ts_fmp4_avc_hevc_minihevc.json';
const MASTER = 'hls/qydysky_master_playlist_room_play-gateway_2025-01_avc_250_400_10000_content_steering.m3u8';

let sim: Awaited<ReturnType<typeof startSim>>;
const api = (): BilibiliApiClient => new BilibiliApiClient({ liveApiHost: sim.url }, ApiLimiter.create({ spacingMs: 0 }));
beforeAll(async () => {
  sim = await startSim([{ roomId: 34501, shortId: 345, live: true, hevc: true }, { roomId: 34502, live: true }, { roomId: 34503, live: true }]);
});
afterAll(() => sim.close());

describe('captured replay', () => {
  it('refuses bad bodies and unknown endpoints with 400', async () => {
    expect((await control(sim.url, '/_sim/rooms/34501/captured', { endpoint: 'nav', body: {} })).status).toBe(400);
    expect((await control(sim.url, '/_sim/rooms/34501/captured', { endpoint: 'getInfoByRoom' })).status).toBe(400);
    expect((await control(sim.url, '/_sim/rooms/34501/captured', { endpoint: 'getInfoByRoom', body: '{not json' })).status).toBe(400);
    expect((await control(sim.url, '/_sim/rooms/34501/captured', { endpoint: 'masterPlaylist', body: { code: 0 } })).status).toBe(400);
    expect((await control(sim.url, '/_sim/rooms/34501/captured', { endpoint: 'roomInit', body: [1, 2] })).status).toBe(400);
  });

  it('getRoomPlayInfo: room ids become the room\'s, every stream URL the simulator\'s with the captured query; it records', async () => {
    const real = json(PLAY) as any;
    const armed = await control(sim.url, '/_sim/rooms/34501/captured', { endpoint: 'getRoomPlayInfo', body: real });
    expect(armed).toMatchObject({ status: 200, json: { captured: ['getRoomPlayInfo'] } });
    const got: any = await (await liveFetch(sim.url, '/xlive/web-room/v2/index/getRoomPlayInfo', { room_id: 34501, qn: 10000 })).json();
    expect(got.data.room_id).toBe(34501);
    expect(got.data.all_special_types).toEqual(real.data.all_special_types);
    const codecs = (d: any) => d.playurl_info.playurl.stream.flatMap((s: any) => s.format.flatMap((f: any) => f.codec.map((c: any) => ({ ...c, format: f.format_name }))));
    const before = codecs(real.data);
    const after = codecs(got.data);
    expect(after).toHaveLength(before.length);
    after.forEach((c: any, i: number) => {
      const was = before[i];
      expect(c.base_url).toMatch(new RegExp(`^/live-bvc/\\d+/live_34501_\\d+${c.codec_name === 'hevc' ? '_prohevc' : ''}(\\.flv|\\.m3u8|/index\\.m3u8)\\?`));
      expect(c.base_url.slice(c.base_url.indexOf('?'))).toBe(was.base_url.slice(was.base_url.indexOf('?')));
      expect(c.url_info).toHaveLength(was.url_info.length);
      c.url_info.forEach((u: any, j: number) => {
        expect(u.host).toMatch(/^http:\/\/(127\.0\.0\.1|localhost):\d+$/);
        expect(u.extra).toBe(was.url_info[j].extra);
      });
      expect(c.accept_qn).toEqual(was.accept_qn);
    });
    // The recorder's choice on the replayed answer: avc at 10000 over FLV (the default RecordingQuality), and the bytes come.
    const url = await resolveStreamUrl(api(), 34501);
    expect([url.format, url.codec, url.qn]).toEqual(['flv', 'avc', 10000]);
    const data = await collect(await openStream(url.url, { ...api().options }), 1500);
    expect(data.data.subarray(0, 3).toString()).toBe('FLV');
  });

  it('getInfoByRoom and roomInit answer the captured bodies with the room\'s ids', async () => {
    await control(sim.url, '/_sim/rooms/34502/captured', { endpoint: 'getInfoByRoom', body: json('api/rustsrec_getInfoByRoom_room22908869_2025-07.json') });
    await control(sim.url, '/_sim/rooms/34502/captured', { endpoint: 'roomInit', body: readFileSync(`${REAL}api/bac_room_v1_Room_room_init_room14073662_short76_2020-10.json`, 'utf8') });
    const info = await api().getRoomInfo(34502);
    expect(info).toMatchObject({ roomId: 34502, shortId: 0, uid: 2071691173, liveStatus: 1, title: '【直播】2025EWC无畏契约 GEN VS EDG' });
    const init = await api().roomInit(34502);
    expect(init).toMatchObject({ roomId: 34502, shortId: 0, uid: 50333369, liveStatus: 1 });
  });

  it('getDanmuInfo: the captured token opens the simulator\'s danmaku socket; hosts point at the simulator', async () => {
    await control(sim.url, '/_sim/rooms/34503/captured', { endpoint: 'getDanmuInfo', body: json('api/bac_getDanmuInfo_room1017_2025-05.json') });
    const a = api();
    const info = await a.getDanmuInfo(34503);
    expect(info.token).toBe((json('api/bac_getDanmuInfo_room1017_2025-05.json') as any).data.token);
    expect(info.hosts).toHaveLength(5);
    expect(new Set(info.hosts.map((h) => `${h.host}:${h.wsPort}`))).toEqual(new Set([`127.0.0.1:${sim.sim.port}`]));
    const dm = new DanmakuClient({ roomId: 34503, api: a, options: { liveApiHost: sim.url } });
    dm.start();
    try {
      await waitFor(() => dm.connected, 10_000, 'danmaku connected with the captured token');
    } finally {
      dm.stop();
    }
  });

  it('masterPlaylist: variants and content-steering pathways become the simulator\'s, queries kept, and the variants play', async () => {
    const text = readFileSync(REAL + MASTER, 'utf8');
    await control(sim.url, '/_sim/rooms/34502/captured', { endpoint: 'masterPlaylist', body: text });
    const res = await liveFetch(sim.url, '/xlive/play-gateway/master/url', { cid: 34502, pt: 'web', qn: 10000 });
    expect(res.headers.get('content-type')).toMatch(/mpegurl/);
    const out = await res.text();
    const urls = out.split('\n').filter((l) => l.startsWith('http'));
    const was = text.split(/\r?\n/).filter((l) => l.startsWith('http'));
    expect(urls).toHaveLength(was.length);
    urls.forEach((u, i) => {
      const url = new URL(u);
      expect(url.origin).toMatch(/^http:\/\/(127\.0\.0\.1|localhost):\d+$/);
      expect(url.pathname).toMatch(/^\/live-bvc\/\d+\/live_34502_\d+\/index\.m3u8$/);
      expect(url.search).toBe(new URL(was[i]!).search);
    });
    expect(out).not.toMatch(/bilivideo\.com/);
    expect(out).toMatch(/#EXT-X-CONTENT-STEERING:.*BILI-PATHWAY-PRIORITY="http:\/\/(127\.0\.0\.1|localhost)/);
    // Without a capture, the room answers the generated master playlist (hls/master-route.ts).
    const generated = await (await liveFetch(sim.url, '/xlive/play-gateway/master/url', { cid: 34503, pt: 'web', qn: 10000 })).text();
    expect(generated).toMatch(/^#EXTM3U/);
    expect(generated).toMatch(/live_34503_/);
    const variant = await fetch(urls[0]!);
    expect(variant.status).toBe(200);
    expect(await variant.text()).toMatch(/^#EXTM3U/);
  });
});
