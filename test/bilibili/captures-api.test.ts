// Every capture in test/fixtures/bili-real/api/ except getRoomPlayInfo and playUrl (the stream tests read those), read the way liverec reads it.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BilibiliApiClient } from '../../src/bilibili/api-client.js';
import { ApiLimiter } from '../../src/bilibili/api-limiter.js';
import { readDanmuInfo, readRoomInfo, readRoomInit } from '../../src/bilibili/api-models.js';
import { keyFromUrl, mixinKey } from '../../src/bilibili/wbi.js';

const DIR = 'test/fixtures/bili-real/api/';
/** `.jsonc` captures carry the author's `//` comments and a trailing comma: strip both. */
const load = (name: string): any => JSON.parse(readFileSync(DIR + name, 'utf8').replace(/^\s*\/\/.*$/gm, '').replace(/,(\s*[}\]])/g, '$1'));
const READ_HERE = new Set<string>();
const read = (name: string): any => {
  READ_HERE.add(name);
  return load(name);
};

/** A real HTTP server answering chosen paths with capture files (the live service's stand-in for one answer each). */
async function captureServer(routes: Record<string, string>): Promise<{ url: string; log: { path: string; query: string; cookie: string }[]; close(): Promise<void> }> {
  const log: { path: string; query: string; cookie: string }[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    log.push({ path: url.pathname, query: url.search, cookie: String(req.headers.cookie ?? '') });
    const file = routes[url.pathname];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(read(file)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, log, close: () => new Promise((r) => server.close(() => r())) };
}

const client = (liveApiHost: string, extra: Record<string, unknown> = {}): BilibiliApiClient =>
  new BilibiliApiClient({ liveApiHost, riskPauseMs: 1, ...extra }, ApiLimiter.create({ spacingMs: 0 }));

describe('identity and signing captures', () => {
  let server: Awaited<ReturnType<typeof captureServer>>;
  afterAll(() => server?.close());

  for (const nav of ['bac_x_web-interface_nav_not_logged_in_wbi_img_compact.json', 'bac_x_web-interface_nav_not_logged_in_wbi_img_2.jsonc', 'bac_x_web-interface_nav_logged_in.json']) {
    it(`signs with the WBI keys of ${nav} and sends finger/spi's b_3/b_4 as buvid3/buvid4`, async () => {
      await server?.close();
      server = await captureServer({
        '/x/web-interface/nav': nav,
        '/x/frontend/finger/spi': 'bac_x_frontend_finger_spi_b3_b4.json',
        '/xlive/web-room/v1/index/getInfoByRoom': 'rustsrec_getInfoByRoom_room22908869_2025-07.json',
      });
      const navBody = load(nav);
      const keys = { imgKey: keyFromUrl(navBody.data.wbi_img.img_url), subKey: keyFromUrl(navBody.data.wbi_img.sub_url) };
      expect(keys.imgKey).toMatch(/^[0-9a-f]{32}$/);
      expect([-101, 0]).toContain(navBody.code); // guests get -101 with the keys; liverec accepts both
      const info = await client(server.url).getRoomInfo(22908869);
      expect(info.roomId).toBe(22908869);
      const call = server.log.find((l) => l.path.endsWith('getInfoByRoom'))!;
      const m = /^\?(.*)&w_rid=([0-9a-f]{32})$/.exec(call.query)!;
      expect(createHash('md5').update(m[1] + mixinKey(keys)).digest('hex')).toBe(m[2]);
      const spi = load('bac_x_frontend_finger_spi_b3_b4.json').data;
      expect(call.cookie).toBe(`buvid3=${spi.b_3}; buvid4=${spi.b_4}`);
      expect(spi.b_3).toBe('D9656DA8-9BEF-F464-5B72-C4849AFD336379044infoc');
    });
  }

  it('getbuvid carries a buvid3 of the same shape as finger/spi b_3 (liverec uses finger/spi, which also gives buvid4)', () => {
    const buvid = read('bac_x_web-frontend_getbuvid_buvid3_only.json').data.buvid as string;
    const shape = /^[0-9A-F]{8}(-[0-9A-F]{4}){3}-[0-9A-F]{12}\d{5}infoc$/;
    expect(buvid).toMatch(shape);
    expect(load('bac_x_frontend_finger_spi_b3_b4.json').data.b_3).toMatch(shape);
  });

  it('both -352 shapes are API_RISK_352 and pause the API', async () => {
    await server?.close();
    for (const file of ['bac_error_-352_risk_control_v_voucher.json', 'bac_error_wbi_missing_v_voucher_redacted.json']) {
      server = await captureServer({ '/xlive/web-room/v1/index/getInfoByRoom': file, '/x/frontend/finger/spi': 'bac_x_frontend_finger_spi_b3_b4.json', '/x/web-interface/nav': 'bac_x_web-interface_nav_not_logged_in_wbi_img_compact.json' });
      const limiter = ApiLimiter.create({ spacingMs: 0 });
      const c = new BilibiliApiClient({ liveApiHost: server.url, riskPauseMs: 60_000 }, limiter);
      await expect(c.getRoomInfo(1), file).rejects.toMatchObject({ code: 'API_RISK_352' });
      expect(limiter.pausedUntil()).toBeGreaterThan(Date.now());
      await server.close();
    }
    expect(read('bac_error_-352_risk_control_v_voucher.json')).toMatchObject({ code: -352, data: { v_voucher: expect.stringMatching(/^voucher_/) } });
    server = undefined as never;
  });
});

describe('room captures', () => {
  it('getInfoByRoom 2025-07: ids, uid, live state, title, area, anchor', () => {
    const info = readRoomInfo(read('rustsrec_getInfoByRoom_room22908869_2025-07.json').data);
    expect(info).toMatchObject({
      roomId: 22908869, shortId: 0, uid: 2071691173, liveStatus: 1, title: '【直播】2025EWC无畏契约 GEN VS EDG',
      areaId: 561, areaName: '游戏赛事', parentAreaId: 13, parentAreaName: '赛事', liveStartTime: 1731912337, anchorName: '无畏契约赛事',
    });
  });

  it('room_init 2020-10: short id 76 → real id 14073662, live, not encrypted', () => {
    const body = read('bac_room_v1_Room_room_init_room14073662_short76_2020-10.json');
    expect(body.msg).toBe('ok'); // the /room/v1 envelope carries msg beside message
    expect(readRoomInit(body.data)).toEqual({ roomId: 14073662, shortId: 76, uid: 50333369, liveStatus: 1, isHidden: false, isLocked: false, encrypted: false, liveTime: 1602151186 });
    expect(body.data).toMatchObject({ pwd_verified: false, is_sp: 0, special_type: 0 });
  });

  it('getDanmuInfo 2025-05: token and five hosts with TCP/ws/wss ports', () => {
    const d = readDanmuInfo(read('bac_getDanmuInfo_room1017_2025-05.json').data);
    expect(d.token).toMatch(/^[A-Za-z0-9_-]{100,}$/);
    expect(d.hosts.map((h) => h.host)).toEqual(['zj-cn-live-comet.chat.bilibili.com', 'zj-cn-live-comet.chat.bilibili.com', 'bd-sz-live-comet-14.chat.bilibili.com', 'bd-bj-live-comet-09.chat.bilibili.com', 'broadcastlv.chat.bilibili.com']);
    expect(new Set(d.hosts.map((h) => `${h.port}/${h.wsPort}/${h.wssPort}`))).toEqual(new Set(['2243/2244/2245']));
  });

  it('endpoints liverec does not call carry the same id and live-state fields (room_id, short_id, uid, live_status; 2 = replay loop)', () => {
    expect(read('bac_room_v1_Room_get_info_room5440_short1.json').data).toMatchObject({ room_id: 5440, short_id: 1, uid: 9617619, live_status: 2 });
    expect(read('bac_room_v1_Room_get_status_info_by_uids_uid672328094.json').data['672328094']).toMatchObject({ room_id: 22637261, short_id: 0, uid: 672328094, live_status: 2 });
    const base = read('bac_xlive_web-room_v1_index_getRoomBaseInfo.json').data.by_room_ids;
    expect(base['23058']).toMatchObject({ room_id: 23058, short_id: 3, uid: 11153765, live_status: 0 });
    expect(base['5440']).toMatchObject({ room_id: 5440, short_id: 1, uid: 9617619, live_status: 2 });
    expect(read('bac_room_v1_Room_getRoomInfoOld.json').data).toMatchObject({ roomid: 5441, live_status: 1, roomStatus: 1 });
    expect(read('bac_live_user_v1_Master_info.json').data).toMatchObject({ room_id: 1024, info: { uid: 2 } });
    expect(read('bac_live_user_v1_UserInfo_get_anchor_in_room.json').data.info).toMatchObject({ uid: 9617619, uname: '哔哩哔哩直播' });
  });
});

describe('coverage', () => {
  it('reads every api/ capture except getRoomPlayInfo and playUrl', () => {
    for (const n of ['bac_x_web-interface_nav_not_logged_in_wbi_img_compact.json', 'bac_x_web-interface_nav_not_logged_in_wbi_img_2.jsonc', 'bac_x_web-interface_nav_logged_in.json', 'bac_x_frontend_finger_spi_b3_b4.json']) READ_HERE.add(n);
    const all = readdirSync(DIR).filter((f) => !/getRoomPlayInfo|playUrl/.test(f));
    expect(all.filter((f) => !READ_HERE.has(f))).toEqual([]);
  });
});
