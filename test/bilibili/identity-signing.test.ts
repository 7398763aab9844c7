// 2026 identity and signing against the strict simulator: guest buvids, WBI + web_location, -352 refusals and recovery.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BilibiliApiClient } from '../../src/bilibili/api-client.js';
import { ApiLimiter } from '../../src/bilibili/api-limiter.js';
import { DanmakuClient } from '../../src/bilibili/danmaku/client.js';
import { authBody } from '../../src/bilibili/danmaku/auth-body.js';
import { DEFAULT_USER_AGENT } from '../../src/bilibili/headers.js';
import { decodePackets, newPacketAnomalies } from '../../src/bilibili/danmaku/packet.js';
import { openStream } from '../../src/bilibili/stream-download.js';
import { resolveStreamUrl } from '../../src/bilibili/stream-url.js';
import { Simulator } from '../../src/simulator/simulator.js';
import { collect, control, liveFetch, startSim, waitFor } from '../simulator/helpers.js';

const API = 'test/fixtures/bili-real/api/';
const capture = (name: string): any => JSON.parse(readFileSync(API + name, 'utf8'));

let sim: Awaited<ReturnType<typeof startSim>>;
beforeAll(async () => {
  sim = await startSim([{ roomId: 34001, shortId: 341, live: true }, { roomId: 34002, live: true }, { roomId: 34003, live: true }]);
});
afterAll(() => sim.close());

/** Each client gets its own main-API host name (a trailing path), so the per-thread caches start empty. */
let hostSeq = 0;
function client(extra: Record<string, unknown> = {}): BilibiliApiClient {
  return new BilibiliApiClient({ liveApiHost: sim.url, mainApiHost: `${sim.url}/x${++hostSeq}/..`, apiTimeoutMs: 3000, riskPauseMs: 200, ...extra }, ApiLimiter.create({ spacingMs: 0 }));
}

describe('the simulator in 2026 mode', () => {
  it('refuses unsigned, badly signed and buvid-less live calls with the two -352 bodies, and serves finger/spi', async () => {
    const path = '/xlive/web-room/v1/index/getInfoByRoom';
    expect(await (await liveFetch(sim.url, path, { room_id: 34001 }, { sign: false })).json()).toEqual({ code: -352, message: '-352', ttl: 1 });
    // getInfoByRoom needs a signature only; getDanmuInfo also a buvid3 (docs/bilibili-2026.md, strictness table).
    expect(await (await liveFetch(sim.url, path, { room_id: 34001 }, { buvid3: '' })).json()).toMatchObject({ code: 0 });
    const noBuvid: any = await (await liveFetch(sim.url, '/xlive/web-room/v1/index/getDanmuInfo', { id: 34001 }, { buvid3: '' })).json();
    expect(noBuvid).toMatchObject({ code: -352, ttl: 1, data: { v_voucher: expect.stringMatching(/^voucher_[0-9a-f-]{36}$/) } });
    expect(Object.keys(noBuvid).sort()).toEqual(Object.keys(capture('bac_error_-352_risk_control_v_voucher.json')).sort());
    const wrong = await liveFetch(sim.url, path, { room_id: 34001 });
    const tampered = wrong.url.replace('room_id=34001', 'room_id=34002');
    await wrong.body?.cancel();
    expect(await (await fetch(tampered, { headers: { cookie: 'buvid3=x' } })).json()).toMatchObject({ code: -352 });
    expect(await (await liveFetch(sim.url, path, { room_id: 34001 })).json()).toMatchObject({ code: 0, data: { room_info: { room_id: 34001 } } });
    // room_init: no source shows it refusing anything.
    expect(await (await liveFetch(sim.url, '/room/v1/Room/room_init', { id: 341 }, { sign: false })).json()).toMatchObject({ code: 0, data: { room_id: 34001 } });
    expect(await (await liveFetch(sim.url, '/room/v1/Room/room_init', { id: 341 }, { sign: false, buvid3: '' })).json()).toMatchObject({ code: 0 });
    const finger: any = await (await fetch(`${sim.url}/x/frontend/finger/spi`)).json();
    const real = capture('bac_x_frontend_finger_spi_b3_b4.json');
    expect(Object.keys(finger)).toEqual(Object.keys(real));
    expect(Object.keys(finger.data)).toEqual(Object.keys(real.data));
    expect(finger.data.b_3).toMatch(/^[0-9A-F]{8}(-[0-9A-F]{4}){3}-[0-9A-F]{12}\d{5}infoc$/);
    expect(finger.data.b_4).toMatch(/^[0-9A-F]{8}(-[0-9A-F]{4}){3}-[0-9A-F]{12}\d{5}-\d{8}-[A-Za-z0-9+/=]+$/);
    expect(sim.sim.refusedHits.signature).toBeGreaterThanOrEqual(2);
    expect(sim.sim.refusedHits.buvid3).toBeGreaterThanOrEqual(1);
  });

  it('accepts everything when lenient (the 2024 behaviour)', async () => {
    const lenient = new Simulator({ lenient: true });
    const running = await lenient.start();
    try {
      lenient.createRoom({ roomId: 34009, live: true });
      const r: any = await (await liveFetch(running.url, '/xlive/web-room/v1/index/getInfoByRoom', { room_id: 34009 }, { sign: false, buvid3: '' })).json();
      expect(r).toMatchObject({ code: 0, data: { room_info: { room_id: 34009 } } });
      expect(lenient.refusedHits).toEqual({ signature: 0, buvid3: 0 });
    } finally {
      await running.close();
    }
  });
});

describe('liverec against the strict simulator', () => {
  it('records with its defaults: one guest identity, both buvids as cookies, web_location on signed calls', async () => {
    const fingers = sim.sim.fingerHits;
    const api = client();
    const info = await api.getRoomInfo(341);
    expect(info.roomId).toBe(34001);
    const url = await resolveStreamUrl(api, 34001);
    const got = await collect(await openStream(url.url, { ...api.options }), 1500);
    expect(got.data.subarray(0, 3).toString()).toBe('FLV');
    await api.getDanmuInfo(34001);
    expect(sim.sim.fingerHits - fingers).toBe(1);
    const log = sim.sim.room(34001).apiLog.slice(-3);
    for (const r of log) {
      expect(r.headers.cookie).toMatch(/^buvid3=\S+infoc; buvid4=\S+$/);
      expect(r.query).toMatch(/[?&]web_location=444\.8&/);
      expect(r.query).toMatch(/&w_rid=[0-9a-f]{32}$/);
    }
  });

  it('is refused where the evidence says: signing off fails getInfoByRoom and getDanmuInfo, identity off getDanmuInfo only', async () => {
    await expect(client({ wbiSign: false }).getRoomInfo(34001)).rejects.toMatchObject({ code: 'API_RISK_352' });
    await expect(client({ wbiSign: false }).getDanmuInfo(34001)).rejects.toMatchObject({ code: 'API_RISK_352' });
    expect((await client({ guestIdentity: false }).getRoomInfo(34001)).roomId).toBe(34001);
    await expect(client({ guestIdentity: false }).getDanmuInfo(34001)).rejects.toMatchObject({ code: 'API_RISK_352' });
  });

  it('after either -352 body: pauses, then signs with fresh keys and a fresh identity, and succeeds', async () => {
    for (const compact of [false, true]) {
      const api = client();
      await api.getRoomInfo(34002);
      const nav = sim.sim.navHits;
      const fingers = sim.sim.fingerHits;
      await control(sim.url, '/_sim/rooms/34002/faults', { kind: 'api352', count: 1, compact });
      await expect(api.getRoomInfo(34002)).rejects.toMatchObject({ code: 'API_RISK_352' });
      await expect(api.getRoomInfo(34002)).rejects.toMatchObject({ code: 'API_PAUSED' });
      await new Promise((r) => setTimeout(r, 250));
      expect((await api.getRoomInfo(34002)).roomId).toBe(34002);
      expect([sim.sim.navHits - nav, sim.sim.fingerHits - fingers], `compact ${compact}`).toEqual([1, 1]);
    }
  });

  it('treats code 0 with only data.v_voucher (an unsigned call, bilibili-API-collect wbi.md) as -352', async () => {
    const api = client();
    await control(sim.url, '/_sim/rooms/34003/captured', { endpoint: 'getInfoByRoom', body: capture('bac_error_wbi_missing_v_voucher_redacted.json') });
    await expect(api.getRoomInfo(34003)).rejects.toMatchObject({ code: 'API_RISK_352' });
  });
});

describe('danmaku AUTH (2026)', () => {
  it('builds the web client body without support_ack (no source shows how to acknowledge): uid, roomid, protover, buvid, queue_uuid, scene, platform, type, key', () => {
    const body = authBody({ uid: 0, roomId: 1017, buvid: 'B3infoc', token: 'tok' });
    expect(Object.keys(body)).toEqual(['uid', 'roomid', 'protover', 'buvid', 'queue_uuid', 'scene', 'platform', 'type', 'key']);
    expect(body).toMatchObject({ protover: 3, scene: 'room', platform: 'web', type: 2 });
    expect(body.queue_uuid).toMatch(/^[a-z0-9]{8}$/);
    // The captured 2023 packet's fields are all still there, in the same order.
    const [packet] = decodePackets(readFileSync('test/fixtures/bili-real/danmaku/bac_packet_auth_op7.bin'), newPacketAnomalies());
    const old = Object.keys(JSON.parse(packet!.body.toString()));
    expect(Object.keys(body).filter((k) => old.includes(k))).toEqual(old);
  });

  it('sends the guest buvid3 in the auth packet and connects', async () => {
    const api = client();
    const dm = new DanmakuClient({ roomId: 34001, api, options: { liveApiHost: sim.url } });
    dm.start();
    try {
      await waitFor(() => dm.connected, 10_000, 'danmaku connected');
      const auth = sim.sim.room(34001).authLog.at(-1)!;
      expect(auth.buvid).toBe(await api.buvid());
      expect(auth.buvid).toMatch(/infoc$/);
      expect(auth).toMatchObject({ scene: 'room', roomid: 34001, uid: 0 });
      expect(auth).not.toHaveProperty('support_ack');
      // The upgrade carries the Cookie with the same buvid3 and the one current User-Agent.
      const upgrade = sim.sim.room(34001).upgradeLog.at(-1)!;
      expect(String(upgrade.headers.cookie)).toBe(`buvid3=${auth.buvid}`);
      expect(upgrade.headers['user-agent']).toBe(DEFAULT_USER_AGENT);
      expect(DEFAULT_USER_AGENT).toMatch(/Chrome\/1(3[2-9]|4[0-7])\./);
    } finally {
      dm.stop();
    }
  });
});
