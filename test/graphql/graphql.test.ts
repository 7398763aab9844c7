// /graphql against a real recorder and simulator: the WebUI's three exact queries and every mutation, checked against REST.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Simulator, type RunningSimulator } from '../../src/simulator/index.js';
import { startFixture, type ApiFixture } from '../api/fixture.js';

// Exactly what BililiveRecorder-WebUI 2.15 sends (brec-interface.md §10), including its non-standard `queryName`.
const ROOM_LIST = 'query q{r:rooms{o:objectId s:streaming r:recording i:ioStats{n:networkMbps} r2:recordingStats{b:durationRatio t:sessionMaxTimestamp}}}';
const POPOVER = 'query q($o:ID){r:room(objectId:$o){i:ioStats{n:networkMbps h:streamHost}r:recordingStats{r:durationRatio s:currentFileSize d:sessionDuration t:sessionMaxTimestamp}}}';
const SAME_ROOM = 'query q{ r:rooms{o:objectId n:name rc:roomConfig{a:autoRecord i:roomId}}}';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('GraphQL at /graphql', () => {
  let sim: Simulator;
  let running: RunningSimulator;
  let fx: ApiFixture;

  const gql = async (query: string, variables?: Record<string, unknown>): Promise<{ status: number; body: Json }> => {
    const res = await fx.call('POST', '/graphql', { queryName: 'q', query, variables });
    return { status: res.status, body: await res.json() };
  };
  const rest = async (path: string): Promise<Json> => (await fx.call('GET', path)).json();

  /** Stats move while recording: retries until one GraphQL answer and the REST answer right after it agree. */
  async function agree(read: () => Promise<[unknown, unknown]>): Promise<void> {
    let last: [unknown, unknown] = [null, null];
    for (let i = 0; i < 40; i++) {
      last = await read();
      if (JSON.stringify(last[0]) === JSON.stringify(last[1])) return;
    }
    expect(last[0]).toEqual(last[1]);
  }

  beforeAll(async () => {
    sim = new Simulator();
    running = await sim.start();
    sim.createRoom({ roomId: 31001, shortId: 31, name: 'g-live', title: 'live one', live: true, bitrateKbps: 800 });
    sim.createRoom({ roomId: 31002, name: 'g-off', title: 'offline', live: false });
    sim.createRoom({ roomId: 31003, name: 'g-new', title: 'added later', live: false });
    fx = await startFixture({ liveApiHost: running.url, rooms: [{ roomId: 31001, autoRecord: true }, { roomId: 31002, autoRecord: false }] });
    // Wait until room 31001 records and has stats, so the comparisons cover real numbers, not only resets.
    for (let i = 0; i < 150; i++) {
      const r = (await rest('/api/room/31001')) as Json;
      if (r.recording && r.recordingStats.currentFileSize > 13 && r.ioStats.streamHost) break;
      await sleep(200);
    }
  }, 60_000);
  afterAll(async () => {
    await fx?.close();
    await running?.close();
  });

  it("answers the WebUI's room-list poll like GET /api/room", async () => {
    await agree(async () => {
      const g = await gql(ROOM_LIST);
      const list = (await rest('/api/room')) as Json[];
      expect(g.status).toBe(200);
      return [g.body.data.r, list.map((x) => ({
        o: x.objectId, s: x.streaming, r: x.recording, i: { n: x.ioStats.networkMbps },
        r2: { b: x.recordingStats.durationRatio, t: x.recordingStats.sessionMaxTimestamp },
      }))];
    });
    const g = await gql(ROOM_LIST);
    const [live, off] = g.body.data.r;
    expect(live.r).toBe(true);
    expect(typeof live.i.n).toBe('number');
    // A room that does not record has reset stats: durationRatio is NaN, written "NaN" as brec does.
    expect(off.r2.b).toBe('NaN');
    expect(off.r).toBe(false);
  });

  it("answers the WebUI's card popover query (with $o:ID) like GET /api/room/{objectId}", async () => {
    const [live] = (await rest('/api/room')) as Json[];
    await agree(async () => {
      const g = await gql(POPOVER, { o: live.objectId });
      const r = (await rest(`/api/room/${live.objectId}`)) as Json;
      return [g.body.data.r, {
        i: { n: r.ioStats.networkMbps, h: r.ioStats.streamHost },
        r: { r: r.recordingStats.durationRatio, s: r.recordingStats.currentFileSize, d: Math.trunc(r.recordingStats.sessionDuration), t: r.recordingStats.sessionMaxTimestamp },
      }];
    });
    expect((await gql(POPOVER, { o: '00000000-0000-0000-0000-000000000001' })).body.data.r).toBeNull();
  });

  it("answers the WebUI toolbox's same-room query like GET /api/room", async () => {
    const g = await gql(SAME_ROOM);
    const list = (await rest('/api/room')) as Json[];
    expect(g.body.data.r).toEqual(list.map((x) => ({ o: x.objectId, n: x.name, rc: { a: x.autoRecord, i: x.roomId } })));
  });

  it('serves version, config and defaultConfig like the REST API, and over GET', async () => {
    const g = await gql('{ version { semVer fullSemVer major } config { optionalRecordMode { hasValue value } optionalCookie { hasValue value } } defaultConfig { recordMode cuttingNumber fileNameRecordTemplate } }');
    const version = await rest('/api/version');
    const defaults = await rest('/api/config/default');
    expect(g.body.data.version).toEqual({ semVer: version.semVer, fullSemVer: version.fullSemVer, major: version.major });
    expect(g.body.data.defaultConfig).toEqual({ recordMode: 'STANDARD', cuttingNumber: defaults.cuttingNumber, fileNameRecordTemplate: defaults.fileNameRecordTemplate });
    expect(g.body.data.config.optionalRecordMode).toEqual({ hasValue: false, value: 'STANDARD' });
    const get = await fx.call('GET', `/graphql?query=${encodeURIComponent('query q($r:[Int]){rooms(roomIds:$r){name}}')}&variables=${encodeURIComponent('{"r":[31]}')}`);
    expect(get.status).toBe(200);
    expect(((await get.json()) as Json).data.rooms).toEqual([{ name: 'g-live' }]);
  });

  it('refuses mutations over GET and malformed requests with a 4xx', async () => {
    const m = await fx.call('GET', `/graphql?query=${encodeURIComponent('mutation { stopRecording(roomId: 31001) { recording } }')}`);
    expect(m.status).toBe(405);
    expect((await rest('/api/room/31001')).autoRecordForThisSession).toBe(true);
    const bad = await fx.call('POST', '/graphql', '{"query": ');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Json).code).toBe(-10);
    const invalid = await gql('{ rooms { noSuchField } }');
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors[0].message).toMatch(/noSuchField/);
    const badGuid = await gql('mutation { startRecording(objectId: "nope") { recording } }');
    expect(badGuid.status).toBe(400);
  });

  it('runs every mutation with REST-visible effects and brec error codes', async () => {
    const live = (await rest('/api/room/31001')) as Json;
    const files = async () => Number((await rest('/api/room/31001')).recordingStats.sessionMaxTimestamp);

    // addRoom: new, duplicate (room or short id), out of range.
    const added = await gql('mutation { addRoom(roomId: 31003, autoRecord: false) { objectId roomConfig { roomId autoRecord } } }');
    expect(added.body.data.addRoom.roomConfig).toEqual({ roomId: 31003, autoRecord: false });
    expect((await rest('/api/room/31003')).objectId).toBe(added.body.data.addRoom.objectId);
    expect((await gql('mutation { addRoom(roomId: 31, autoRecord: true) { objectId } }')).body.errors[0].extensions.code).toBe('BREC_ROOM_DUPLICATE');
    expect((await gql('mutation { addRoom(roomId: 0) { objectId } }')).body.errors[0].extensions.code).toBe('BREC_ROOMID_OUT_OF_RANGE');

    // setRoomConfig by objectId (Guid): enum by name, a uint, autoRecord; REST shows the same override.
    const set = await gql('mutation q($o: Guid) { setRoomConfig(objectId: $o, config: { autoRecord: true, optionalRecordMode: { hasValue: true, value: RAW_DATA }, optionalCuttingNumber: { hasValue: true, value: 7 } }) { roomConfig { autoRecord optionalRecordMode { hasValue value } } } }',
      { o: added.body.data.addRoom.objectId });
    expect(set.body.data.setRoomConfig.roomConfig).toEqual({ autoRecord: true, optionalRecordMode: { hasValue: true, value: 'RAW_DATA' } });
    const roomConfig = await rest('/api/room/31003/config');
    expect(roomConfig.autoRecord).toBe(true);
    expect(roomConfig.optionalRecordMode).toEqual({ hasValue: true, value: 1 });
    expect(roomConfig.optionalCuttingNumber).toEqual({ hasValue: true, value: 7 });
    const badValue = await gql('mutation { setRoomConfig(roomId: 31003, config: { optionalCuttingNumber: { hasValue: true, value: -1 } }) { shortId } }');
    expect(badValue.status).toBe(400);

    // setConfig: global overrides, cleared again with hasValue false.
    const g1 = await gql('mutation { setConfig(config: { optionalTimingCheckInterval: { hasValue: true, value: 321 }, optionalDanmakuTransport: { hasValue: true, value: WS } }) { optionalTimingCheckInterval { hasValue value } } }');
    expect(g1.body.data.setConfig.optionalTimingCheckInterval).toEqual({ hasValue: true, value: 321 });
    const global = await rest('/api/config/global');
    expect(global.optionalTimingCheckInterval).toEqual({ hasValue: true, value: 321 });
    expect(global.optionalDanmakuTransport).toEqual({ hasValue: true, value: 2 });
    await gql('mutation { setConfig(config: { optionalTimingCheckInterval: { hasValue: false } }) { optionalTimingCheckInterval { hasValue } } }');
    expect((await rest('/api/config/global')).optionalTimingCheckInterval.hasValue).toBe(false);

    // stop / start by room id (the short id works too), split, refresh.
    const stopped = await gql('mutation { stopRecording(roomId: 31) { autoRecordForThisSession } }');
    expect(stopped.body.data.stopRecording.autoRecordForThisSession).toBe(false);
    expect((await rest('/api/room/31001')).autoRecordForThisSession).toBe(false);
    for (let i = 0; i < 100 && (await rest('/api/room/31001')).recording; i++) await sleep(200);
    expect((await rest('/api/room/31001')).recording).toBe(false);
    const started = await gql(`mutation { startRecording(objectId: "${live.objectId}") { autoRecordForThisSession } }`);
    expect(started.body.data.startRecording.autoRecordForThisSession).toBe(true);
    for (let i = 0; i < 100 && !(await rest('/api/room/31001')).recording; i++) await sleep(200);
    expect((await rest('/api/room/31001')).recording).toBe(true);
    for (let i = 0; i < 100 && (await files()) < 2000; i++) await sleep(200);
    const split = await gql('mutation { splitRecordingOutput(roomId: 31001) { recording } }');
    expect(split.body.data.splitRecordingOutput.recording).toBe(true);
    // After a split the new file starts at 0 while the session keeps counting.
    for (let i = 0; i < 100; i++) {
      const s = (await rest('/api/room/31001')).recordingStats;
      if (s.fileMaxTimestamp < s.sessionMaxTimestamp - 1000) break;
      await sleep(200);
    }
    const s = (await rest('/api/room/31001')).recordingStats;
    expect(s.fileMaxTimestamp).toBeLessThan(s.sessionMaxTimestamp - 1000);
    const refreshed = await gql('mutation { refreshRoomInfo(roomId: 31002) { name title } }');
    const off = await rest('/api/room/31002');
    expect(refreshed.body.data.refreshRoomInfo).toEqual({ name: off.name, title: off.title });
    expect(off.name).toBe('g-off');

    // removeRoom, then every room mutation on it is BREC_ROOM_NOT_FOUND.
    const removed = await gql('mutation { removeRoom(roomId: 31003) { roomConfig { roomId } } }');
    expect(removed.body.data.removeRoom.roomConfig.roomId).toBe(31003);
    expect((await fx.call('GET', '/api/room/31003')).status).toBe(404);
    for (const m of ['removeRoom', 'refreshRoomInfo', 'startRecording', 'stopRecording', 'splitRecordingOutput']) {
      const r = await gql(`mutation { ${m}(roomId: 31003) { shortId } }`);
      expect(r.body.data[m]).toBeNull();
      expect(r.body.errors[0].extensions.code).toBe('BREC_ROOM_NOT_FOUND');
    }
    expect((await gql('mutation { setRoomConfig(roomId: 31003, config: {}) { shortId } }')).body.errors[0].extensions.code).toBe('BREC_ROOM_NOT_FOUND');
  }, 60_000);
});

describe('GraphQL behind the API guards', () => {
  it('follows the cross-origin policy: foreign origins refused without auth, JSON bodies only', async () => {
    const fx = await startFixture({ rooms: [] });
    try {
      const query = JSON.stringify({ query: 'mutation { addRoom(roomId: 5, autoRecord: true) { objectId } }' });
      expect((await fx.call('POST', '/graphql', query, { origin: 'http://evil.test' })).status).toBe(403);
      const form = await fetch(`${fx.url}/graphql`, { method: 'POST', body: query, headers: { 'content-type': 'text/plain' } });
      expect(form.status).toBe(415);
      expect(fx.recorder.rooms).toHaveLength(0);
    } finally {
      await fx.close();
    }
  });

  it('with auth, an untrusted origin reads rooms but not settings, like the REST settings paths', async () => {
    const fx = await startFixture({ basicUser: 'u', basicPass: 'p', rooms: [{ roomId: 6, autoRecord: false }] });
    try {
      const headers = { authorization: `Basic ${Buffer.from('u:p').toString('base64')}`, origin: 'http://other.test' };
      const rooms = await fx.call('POST', '/graphql', { query: SAME_ROOM.replace(' rc:roomConfig{a:autoRecord i:roomId}', '') }, headers);
      expect(rooms.status).toBe(200);
      for (const q of ['{ config { optionalCookie { value } } }', '{ rooms { roomConfig { optionalRecordMode { value } } } }',
        'mutation { setConfig(config: { optionalCookie: { hasValue: true, value: "x" } }) { optionalCookie { value } } }']) {
        const r = await fx.call('POST', '/graphql', { query: q }, headers);
        expect(r.status, q).toBe(403);
        expect(((await r.json()) as Json).errors[0].extensions.code).toBe('CROSS_ORIGIN_REFUSED');
      }
      expect(fx.recorder.config.global.Cookie).toBeUndefined();
      const own = await fx.call('POST', '/graphql', { query: '{ config { optionalCookie { hasValue } } }' }, { authorization: headers.authorization });
      expect(own.status).toBe(200);
    } finally {
      await fx.close();
    }
  });

  it('needs the same Basic auth as /api, and gets the same CORS headers', async () => {
    const fx = await startFixture({ basicUser: 'u', basicPass: 'p', rooms: [] });
    try {
      const query = JSON.stringify({ query: '{ rooms { objectId } }' });
      const denied = await fx.call('POST', '/graphql', query, { origin: 'http://example.test' });
      expect(denied.status).toBe(401);
      const ok = await fx.call('POST', '/graphql', query, { authorization: `Basic ${Buffer.from('u:p').toString('base64')}`, origin: 'http://example.test' });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('access-control-allow-origin')).toBe('http://example.test');
      expect(await ok.json()).toEqual({ data: { rooms: [] } });
    } finally {
      await fx.close();
    }
  });
});
