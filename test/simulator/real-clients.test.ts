// Real third-party danmaku clients against the simulator, by their own flows: bilibili-live-ws (WebSocket and raw TCP)
// and blive-message-listener (tiny-bilibili-ws over TCP); each must receive a danmaku, a V1 and a V2 gift, a super chat and a guard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getConf, getRoomid, KeepLiveTCP, KeepLiveWS, LiveTCP, LiveWS } from 'bilibili-live-ws';
import { startListen } from 'blive-message-listener';
import { Simulator } from '../../src/simulator/simulator.js';
import { danmuCommand, giftCommand, giftV2Command, guardCommand, superChatCommand } from '../../src/simulator/danmaku-messages.js';
import { decodeSendGiftV2 } from '../../src/bilibili/danmaku/v2-protobuf.js';
import { mapServiceHosts } from '../support/host-map.js';
import { liveFetch, TEST_BUVID3, waitFor } from './helpers.js';

const ROOM = 47100;
const SHORT = 471;
let sim: Simulator;
let unmap: () => void;

beforeAll(async () => {
  sim = new Simulator();
  const running = await sim.start();
  sim.createRoom({ roomId: ROOM, shortId: SHORT, live: true, name: 'anchor' });
  unmap = mapServiceHosts(running.port);
});
afterAll(async () => {
  unmap();
  await sim.close();
});

const KINDS = ['DANMU_MSG', 'SEND_GIFT', 'SEND_GIFT_V2', 'SUPER_CHAT_MESSAGE', 'GUARD_BUY'] as const;

/** Pushes one of each kind once `clients` more connections have authenticated since `before`. */
async function pushAll(before: number, clients: number): Promise<void> {
  await waitFor(() => sim.room(ROOM).counters.danmakuConnections - before >= clients, 20_000, 'authenticated clients');
  const room = sim.room(ROOM);
  sim.push(ROOM, [
    danmuCommand({ text: 'hello from the simulator', uid: 42, uname: 'viewer' }),
    giftCommand({ giftName: '辣条', num: 3, uid: 43, uname: 'gifter' }),
    giftV2Command({ giftName: '小花花', num: 2, uid: 44, uname: 'gifter2', price: 100 }, room),
    superChatCommand(room, { message: 'sc text', price: 30, uid: 45, uname: 'sc-user' }),
    guardCommand({ uid: 46, username: 'captain', guardLevel: 3 }),
  ]);
}

/** The token and host list as a client gets them in 2026: WBI-signed and with a buvid3 (docs/bilibili-2026.md); `cookie` adds a login. */
async function danmuInfo(cookie?: string): Promise<{ token: string; host_list: { host: string; port: number; ws_port: number; wss_port: number }[] }> {
  const body = (await (await liveFetch(sim.url, '/xlive/web-room/v1/index/getDanmuInfo', { id: ROOM, type: 0, web_location: '444.8' }, { cookie })).json()) as { code: number; data: any };
  expect(body.code).toBe(0);
  return body.data;
}

describe('bilibili-live-ws against the simulator', () => {
  it('getRoomid resolves a short id through mobileRoomInit; getConf (unsigned, no cookie) is refused as the service refuses it', async () => {
    expect(await getRoomid(SHORT)).toBe(ROOM);
    await expect(getConf(ROOM)).rejects.toThrow();
    expect(sim.refusedHits.signature + sim.refusedHits.buvid3).toBeGreaterThan(0);
  });

  for (const transport of ['ws', 'tcp'] as const) {
    it(`${transport === 'ws' ? 'LiveWS/KeepLiveWS' : 'LiveTCP/KeepLiveTCP'} receives every pushed type`, async () => {
      const info = await danmuInfo();
      const h = info.host_list[0]!;
      expect(transport === 'ws' ? h.ws_port : h.port).toBeGreaterThan(0);
      const opts = { key: info.token, buvid: TEST_BUVID3, uid: 0 };
      const before = sim.room(ROOM).counters.danmakuConnections;
      const plain = transport === 'ws' ? new LiveWS(ROOM, { ...opts, address: `ws://${h.host}:${h.ws_port}/sub` }) : new LiveTCP(ROOM, { ...opts, host: h.host, port: h.port });
      const kept = transport === 'ws' ? new KeepLiveWS(ROOM, { ...opts, address: `ws://${h.host}:${h.ws_port}/sub` }) : new KeepLiveTCP(ROOM, { ...opts, host: h.host, port: h.port });
      const seen = [new Map<string, any>(), new Map<string, any>()];
      [plain, kept].forEach((c, i) => {
        for (const k of [...KINDS, 'LOG_IN_NOTICE']) c.on(k, (d: any) => seen[i]!.set(k, d));
      });
      try {
        await pushAll(before, 2);
        await waitFor(() => seen.every((m) => KINDS.every((k) => m.has(k)) && m.has('LOG_IN_NOTICE')), 20_000, 'every kind on both clients');
        for (const m of seen) {
          expect(m.get('DANMU_MSG').info[1]).toBe('hello from the simulator');
          // A guest's token: the sender masked, and the notice that says why (docs/bilibili-2026.md, "Simulator").
          expect(m.get('DANMU_MSG').info[2].slice(0, 2)).toEqual([0, 'v***']);
          expect(m.get('LOG_IN_NOTICE').data.notice_msg).toBe('为保护用户隐私，未登录无法查看他人昵称');
          expect(m.get('SEND_GIFT').data).toMatchObject({ giftName: '辣条', num: 3 });
          expect(decodeSendGiftV2(m.get('SEND_GIFT_V2').data.pb).gifts[0]).toMatchObject({ giftName: '小花花', num: 2 });
          expect(m.get('SUPER_CHAT_MESSAGE')).toMatchObject({ data: { message: 'sc text' }, p_is_ack: true, msg_id: expect.any(String) });
          expect(m.get('GUARD_BUY').data).toMatchObject({ username: 'captain', guard_level: 3 });
        }
        expect([...sim.room(ROOM).danmaku].filter((p) => p.transport === transport).length).toBeGreaterThanOrEqual(2);
      } finally {
        plain.close();
        kept.close();
      }
    });
  }
});

describe('a logged-in token against the simulator', () => {
  it('LiveWS with a token getDanmuInfo issued to a logged-in cookie gets full sender names and no LOG_IN_NOTICE', async () => {
    const session = sim.passport.newSession(4242);
    const info = await danmuInfo(`SESSDATA=${session.sessdata}; DedeUserID=4242`);
    const h = info.host_list[0]!;
    const before = sim.room(ROOM).counters.danmakuConnections;
    const notices = sim.room(ROOM).counters.loginNotices;
    const client = new LiveWS(ROOM, { key: info.token, buvid: TEST_BUVID3, uid: 4242, address: `ws://${h.host}:${h.ws_port}/sub` });
    const seen = new Map<string, any>();
    for (const k of [...KINDS, 'LOG_IN_NOTICE']) client.on(k, (d: any) => seen.set(k, d));
    try {
      await pushAll(before, 1);
      await waitFor(() => KINDS.every((k) => seen.has(k)), 20_000, 'every kind');
      expect(seen.get('DANMU_MSG').info[2].slice(0, 2)).toEqual([42, 'viewer']);
      expect(seen.has('LOG_IN_NOTICE')).toBe(false);
      expect(sim.room(ROOM).counters.loginNotices).toBe(notices);
    } finally {
      client.close();
    }
  });
});

describe('blive-message-listener against the simulator', () => {
  it('startListen (mobileRoomInit, nav, signed getDanmuInfo with its Cookie option, finger/spi, raw TCP) receives every pushed type', async () => {
    const got: Record<string, any> = {};
    const before = sim.room(ROOM).counters.danmakuConnections;
    const listener = startListen(SHORT, {
      onIncomeDanmu: (m) => (got.DANMU_MSG = m),
      onGift: (m) => (got.SEND_GIFT = m),
      onIncomeSuperChat: (m) => (got.SUPER_CHAT_MESSAGE = m),
      onGuardBuy: (m) => (got.GUARD_BUY = m),
      // 0.5.5 (the newest on the registry) has no SEND_GIFT_V2 parser: it reaches the raw handler.
      raw: { SEND_GIFT_V2: (d: any) => (got.SEND_GIFT_V2 = d) },
    }, { ws: { headers: { Cookie: `buvid3=${TEST_BUVID3}` } } as any });
    try {
      await pushAll(before, 1);
      await waitFor(() => KINDS.every((k) => got[k] !== undefined), 20_000, 'every kind');
      expect(got.DANMU_MSG.body.content).toBe('hello from the simulator');
      expect(got.DANMU_MSG.body.user).toMatchObject({ uid: 0, uname: 'v***' });
      expect(got.SEND_GIFT.body).toMatchObject({ gift_name: '辣条', amount: 3 });
      expect(decodeSendGiftV2(got.SEND_GIFT_V2.data.pb).gifts[0]).toMatchObject({ giftName: '小花花' });
      expect(got.SUPER_CHAT_MESSAGE.body).toMatchObject({ content: 'sc text', price: 30 });
      expect(got.GUARD_BUY.body).toMatchObject({ guard_level: 3 });
      // Its getDanmuInfo went out signed and with the Cookie option, and was answered (the table's two rules met).
      const call = sim.room(ROOM).apiLog.filter((r) => r.path === '/xlive/web-room/v1/index/getDanmuInfo').at(-1)!;
      expect(call.query).toMatch(/[?&]w_rid=[0-9a-f]{32}/);
      expect(String(call.headers.cookie)).toContain(`buvid3=${TEST_BUVID3}`);
      const peer = [...sim.room(ROOM).danmaku].at(-1)!;
      expect(peer.transport).toBe('tcp');
      const auth = sim.room(ROOM).authLog.at(-1) as Record<string, unknown>;
      expect(auth).toMatchObject({ roomid: ROOM, buvid: expect.stringMatching(/infoc$/) });
    } finally {
      listener.close();
    }
  });
});
