// The real API client against the simulator: every endpoint, headers, service errors and bad answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BilibiliApiClient } from '../../src/bilibili/api-client.js';
import { ApiLimiter } from '../../src/bilibili/api-limiter.js';
import type { BilibiliError } from '../../src/bilibili/errors.js';
import { control, startSim } from '../simulator/helpers.js';

let sim: Awaited<ReturnType<typeof startSim>>;
const COOKIE = 'buvid3=ABC-123infoc; DedeUserID=4242; SESSDATA=secret';

function client(extra: Record<string, unknown> = {}): BilibiliApiClient {
  return new BilibiliApiClient({ liveApiHost: sim.url, cookie: COOKIE, apiTimeoutMs: 2000, ...extra }, ApiLimiter.create({ perMinute: 0 }));
}

async function failure(p: Promise<unknown>): Promise<BilibiliError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err, 'expected the call to fail').not.toBeNull();
  return err as BilibiliError;
}

beforeAll(async () => {
  sim = await startSim([
    { roomId: 5440, shortId: 1, uid: 9617619, name: 'anchor', title: 'hello', areaNameParent: '网游', areaNameChild: '英雄联盟', live: true },
    { roomId: 6000, live: false },
  ]);
});
afterAll(() => sim.close());

describe('API endpoints', () => {
  it('getInfoByRoom resolves a short id and reads room and anchor fields', async () => {
    const info = await client().getRoomInfo(1);
    expect(info).toMatchObject({
      roomId: 5440, shortId: 1, uid: 9617619, liveStatus: 1, title: 'hello', anchorName: 'anchor', parentAreaName: '网游', areaName: '英雄联盟',
    });
    expect(info.liveStartTime).toBeGreaterThan(1_600_000_000);
    expect(info.raw).toHaveProperty('anchor_info.base_info.face');
  });

  it('room_init maps short ids to real ids and reports offline rooms', async () => {
    expect(await client().roomInit(1)).toMatchObject({ roomId: 5440, shortId: 1, liveStatus: 1 });
    expect(await client().roomInit(6000)).toMatchObject({ roomId: 6000, shortId: 0, liveStatus: 0 });
  });

  it('getRoomPlayInfo has the real layout: http_stream/flv/avc first, then http_hls', async () => {
    const play = await client().getPlayInfo(5440, 10000);
    expect(play.streams!.map((s) => s.protocolName)).toEqual(['http_stream', 'http_hls']);
    expect(play.streams![0]!.formats[0]!.formatName).toBe('flv');
    const avc = play.streams![0]!.formats[0]!.codecs[0]!;
    expect(avc).toMatchObject({ codecName: 'avc', currentQn: 10000, acceptQn: [10000, 400, 250, 150] });
    expect(avc.urlInfo.map((u) => u.host)).toContain(sim.url);
    expect(avc.urlInfo.some((u) => u.host.includes('.mcdn.'))).toBe(true);
    expect(play.streams![1]!.formats.map((f) => f.formatName)).toEqual(['ts', 'fmp4']);
    expect((await client().getPlayInfo(6000, 10000)).streams).toBeNull();
  });

  it('getDanmuInfo returns a token and a host list that points back at the simulator', async () => {
    const d = await client().getDanmuInfo(5440);
    expect(d.token).toMatch(/^sim-5440-/);
    // port names the simulator's raw-TCP danmaku listener (a real one, so not 0); ws_port its HTTP port (/sub).
    const tcpPort = sim.sim.address().danmakuTcpPort;
    expect(tcpPort).toBeGreaterThan(0);
    expect(d.hosts).toEqual([{ host: '127.0.0.1', port: tcpPort, wsPort: sim.sim.port, wssPort: 0 }]);
  });

  it('sends the headers the service expects; the user cookie wins, a guest identity fills in what it lacks', async () => {
    await client().getRoomInfo(5440);
    const log = sim.sim.room(5440).apiLog;
    const h = log.at(-1)!.headers;
    expect(h['user-agent']).toMatch(/Chrome\/140/);
    expect(h.referer).toBe('https://live.bilibili.com/');
    expect(h.origin).toBe('https://live.bilibili.com');
    expect(h.cookie).toBe(COOKIE);
    const fingers = sim.sim.fingerHits;
    await client({ cookie: '' }).getRoomInfo(5440);
    await client({ cookie: '' }).getPlayInfo(5440, 10000);
    const guest = sim.sim.room(5440).apiLog.at(-1)!.headers.cookie as string;
    expect(guest).toMatch(/^buvid3=[0-9A-F-]{36}\d{5}infoc; buvid4=[0-9A-F-]{36}\d{5}-\d{8}-\S+$/);
    expect(sim.sim.room(5440).apiLog.at(-2)!.headers.cookie).toBe(guest);
    expect(sim.sim.fingerHits - fingers).toBeLessThanOrEqual(1); // once per thread and host, shared by clients
    await client({ cookie: 'SESSDATA=x; buvid3=mine' }).getRoomInfo(5440);
    expect(sim.sim.room(5440).apiLog.at(-1)!.headers.cookie).toBe('SESSDATA=x; buvid3=mine');
    await client({ cookie: 'SESSDATA=x' }).getRoomInfo(5440);
    expect(sim.sim.room(5440).apiLog.at(-1)!.headers.cookie).toBe(`SESSDATA=x; ${guest}`);
  });
});

describe('service errors', () => {
  it('unknown rooms are API_ROOM_NOT_FOUND with the service code', async () => {
    const e1 = await failure(client().getRoomInfo(99));
    expect(e1).toMatchObject({ code: 'API_ROOM_NOT_FOUND', serviceCode: 19002000 });
    const e2 = await failure(client().roomInit(99));
    expect(e2).toMatchObject({ code: 'API_ROOM_NOT_FOUND', serviceCode: 60004 });
    const e3 = await failure(client().getDanmuInfo(99));
    expect(e3).toMatchObject({ code: 'API_ERROR', serviceCode: 1 });
  });

  it('an unreachable host is API_NETWORK and a slow answer API_TIMEOUT', async () => {
    const dead = new BilibiliApiClient({ liveApiHost: 'http://127.0.0.1:1', apiTimeoutMs: 2000 }, ApiLimiter.create({ spacingMs: 0 }));
    expect((await failure(dead.getRoomInfo(1))).code).toBe('API_NETWORK');
    await control(sim.url, '/_sim/rooms/5440/faults', { kind: 'api-delay', delayMs: 1500 });
    expect((await failure(client({ apiTimeoutMs: 300 }).getRoomInfo(5440))).code).toBe('API_TIMEOUT');
    expect((await client().getRoomInfo(5440)).roomId).toBe(5440);
  });

  it.each([
    ['json', 'API_BAD_RESPONSE', /not JSON/],
    ['html', 'API_BAD_RESPONSE', /text\/html/],
    ['no-envelope', 'API_BAD_RESPONSE', /not a JSON object/],
    ['missing-field', 'API_BAD_RESPONSE', /data\.room_info\.room_id should be a number, got undefined/],
    ['wrong-type', 'API_BAD_RESPONSE', /data\.room_info\.room_id should be a number, got object/],
    ['http-500', 'API_HTTP_STATUS', /HTTP 500/],
  ])('a malformed answer (%s) is a typed error, and the next call works', async (variant, code, message) => {
    const c = client();
    await control(sim.url, '/_sim/rooms/5440/faults', { kind: 'api-malformed', variant });
    const err = await failure(c.getRoomInfo(5440));
    expect(err.code).toBe(code);
    expect(err.message).toMatch(message);
    expect((await c.getRoomInfo(5440)).roomId).toBe(5440);
  });

  it('malformed play info and danmaku info are typed errors too', async () => {
    await control(sim.url, '/_sim/rooms/5440/faults', { kind: 'api-malformed', variant: 'missing-field', path: 'getRoomPlayInfo' });
    expect(await failure(client().getPlayInfo(5440, 10000))).toMatchObject({ code: 'API_BAD_RESPONSE', message: expect.stringMatching(/playurl\.stream/) });
    await control(sim.url, '/_sim/rooms/5440/faults', { kind: 'api-malformed', variant: 'wrong-type', path: 'getDanmuInfo' });
    expect(await failure(client().getDanmuInfo(5440))).toMatchObject({ code: 'API_BAD_RESPONSE', message: expect.stringMatching(/data\.token/) });
  });
});
