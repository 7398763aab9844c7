// The danmaku client against the simulator's /sub socket: auth, heartbeats, every event, bad frames, reconnects.
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync } from 'node:zlib';
import { WebSocketServer } from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BilibiliApiClient } from '../../src/bilibili/api-client.js';
import { ApiLimiter } from '../../src/bilibili/api-limiter.js';
import { DanmakuClient } from '../../src/bilibili/danmaku/client.js';
import type { DanmakuEvent } from '../../src/bilibili/danmaku/commands.js';
import { control, startSim, waitFor } from '../simulator/helpers.js';

let sim: Awaited<ReturnType<typeof startSim>>;
const clients: DanmakuClient[] = [];

beforeAll(async () => {
  sim = await startSim([{ roomId: 9100, shortId: 91, live: false }, { roomId: 9200, live: true }]);
});
afterEach(() => {
  for (const c of clients.splice(0)) c.stop();
});
afterAll(() => sim.close());

/**
 * Heartbeats every 2 s: 2.5 of them without data drop the connection, so a busy machine does not reconnect under a
 * test that posts frames to the open socket (at 150 ms a 375 ms stall lost the frames: four danmaku never came).
 */
function connect(roomId: number, extra: Record<string, unknown> = {}): { client: DanmakuClient; events: DanmakuEvent[] } {
  const options = { liveApiHost: sim.url, cookie: 'buvid3=BV-XYZinfoc; DedeUserID=31415; SESSDATA=s', danmakuHeartbeatMs: 2000, danmakuRetryMs: 300, ...extra };
  const api = new BilibiliApiClient(options, ApiLimiter.create({ spacingMs: 0 }));
  const client = new DanmakuClient({ roomId, api, options });
  const events: DanmakuEvent[] = [];
  client.on('event', (e) => events.push(e));
  client.on('warning', () => {});
  clients.push(client);
  client.start();
  return { client, events };
}

const post = (path: string, body: unknown) => control(sim.url, path, body);
const packet = (op: number, version: number, body: Buffer): Buffer => {
  const h = Buffer.alloc(16);
  h.writeUInt32BE(16 + body.length, 0);
  h.writeUInt16BE(16, 4);
  h.writeUInt16BE(version, 6);
  h.writeUInt32BE(op, 8);
  return Buffer.concat([h, body]);
};
const cmd = (o: unknown): Buffer => packet(5, 0, Buffer.from(JSON.stringify(o)));

describe('danmaku client', () => {
  it('authenticates with the real room id, protover 3, the issued token, and the cookie identity', async () => {
    const { client } = connect(9100);
    await waitFor(() => client.connected, 20_000, 'connected');
    const room = sim.sim.room(9100);
    const auth = room.authLog.at(-1)!;
    expect(auth).toMatchObject({ roomid: 9100, protover: 3, uid: 31415, buvid: 'BV-XYZinfoc', platform: 'web', type: 2 });
    expect(room.tokens).toContain(auth.key);
    expect(room.counters.danmakuConnections).toBeGreaterThanOrEqual(1);
  });

  it('sends heartbeats that the server answers with popularity', async () => {
    const { client } = connect(9100, { danmakuHeartbeatMs: 150 });
    await waitFor(() => client.stats.heartbeatReplies >= 3, 20_000, 'three heartbeat replies');
    expect(client.stats.popularity).toBe(1000);
    expect(sim.sim.room(9100).counters.heartbeats).toBeGreaterThanOrEqual(3);
  });

  it('gets LIVE twice (the first with live_time) as live_status flips, then PREPARING', async () => {
    const { client, events } = connect(9100);
    await waitFor(() => client.connected, 20_000, 'connected');
    await post('/_sim/rooms/9100/live', { live: true });
    await waitFor(() => events.length >= 2, 20_000, 'LIVE events');
    expect(events.map((e) => e.type)).toEqual(['LIVE', 'LIVE']);
    expect(events[0]).toMatchObject({ roomId: 9100, liveTime: expect.any(Number) });
    expect(events[1]).not.toHaveProperty('liveTime');
    const api = new BilibiliApiClient({ liveApiHost: sim.url }, ApiLimiter.create({ spacingMs: 0 }));
    expect((await api.getRoomInfo(9100)).liveStatus).toBe(1);
    await post('/_sim/rooms/9100/live', { live: false, round: true });
    await waitFor(() => events.length >= 3, 20_000, 'PREPARING');
    expect(events[2]).toMatchObject({ type: 'PREPARING', roomId: 9100, round: true });
  });

  it('types ROOM_CHANGE, DANMU_MSG (with suffix), gifts, super chats, guards and CUT_OFF; ignores the rest', async () => {
    const { client, events } = connect(9200);
    await waitFor(() => client.connected, 20_000, 'connected');
    await post('/_sim/rooms/9200/title', { title: 'new title', areaNameChild: 'child' });
    await post('/_sim/rooms/9200/danmaku', { text: 'hello', uid: 7, uname: 'viewer', suffix: ':4:0:2:2:2:0', guardLevel: 2 });
    await post('/_sim/rooms/9200/gift', { giftName: '小心心', num: 3, uid: 8, uname: 'g' });
    await post('/_sim/rooms/9200/superchat', { message: 'sc', price: 50, uid: 9, uname: 's' });
    await post('/_sim/rooms/9200/guard', { uid: 10, username: 'cap', guardLevel: 3 });
    await post('/_sim/rooms/9200/danmaku-raw', { command: { cmd: 'WATCHED_CHANGE', data: { num: 1 } } });
    await post('/_sim/rooms/9200/cut-off', { msg: 'violation' });
    await waitFor(() => events.length >= 7, 20_000, 'seven events');
    expect(events.map((e) => e.type)).toEqual(['ROOM_CHANGE', 'DANMU_MSG', 'SEND_GIFT', 'SUPER_CHAT_MESSAGE', 'GUARD_BUY', 'CUT_OFF', 'PREPARING']);
    expect(events[0]).toMatchObject({ title: 'new title', areaName: 'child' });
    expect(events[1]).toMatchObject({ text: 'hello', uid: 7, uname: 'viewer', guardLevel: 2 });
    expect(events[2]).toMatchObject({ giftName: '小心心', num: 3 });
    expect(events[3]).toMatchObject({ message: 'sc', price: 50, uname: 's' });
    expect(events[4]).toMatchObject({ username: 'cap', guardLevel: 3 });
    expect(events[5]).toMatchObject({ message: 'violation' });
    expect(client.stats.ignoredCommands).toBe(1);
    await post('/_sim/rooms/9200/live', { live: true });
  });

  it('decodes zlib and brotli batches and survives truncated frames, bad JSON and malformed commands', async () => {
    const { client, events } = connect(9200);
    await waitFor(() => client.connected, 20_000, 'connected');
    const danmu = (text: string) => ({ cmd: 'DANMU_MSG', info: [[0, 1, 25, 0, 0], text, [1, 'u']] });
    const batch = Buffer.concat([cmd(danmu('z1')), cmd(danmu('z2'))]);
    const raw = (b: Buffer) => post('/_sim/rooms/9200/danmaku-raw', { base64: b.toString('base64') });
    await raw(packet(5, 2, deflateSync(batch)));
    await raw(packet(5, 3, brotliCompressSync(Buffer.concat([cmd(danmu('b1')), packet(5, 0, Buffer.from('{not json')), cmd({ cmd: 'DANMU_MSG', info: 5 })]))));
    await raw(cmd(danmu('cut')).subarray(0, 20));
    await raw(packet(5, 3, Buffer.from('garbage')));
    await raw(Buffer.from([1, 2, 3]));
    // A 200 KB `[[[…]]]` command (under the 256 KiB command cap): refused before JSON.parse (issue 46 parse budget).
    await raw(packet(5, 0, Buffer.from(`{"cmd":"DANMU_MSG","info":${'['.repeat(100_000)}${']'.repeat(100_000)}}`)));
    await post('/_sim/rooms/9200/danmaku', { text: 'after' });
    await waitFor(() => events.length >= 4, 20_000, 'four danmaku');
    expect(events.map((e) => (e.type === 'DANMU_MSG' ? e.text : e.type))).toEqual(['z1', 'z2', 'b1', 'after']);
    expect(client.stats.anomalies).toMatchObject({ badJson: 1, malformedCommands: 2, truncated: 2, badCompression: 1 });
    expect(client.connected).toBe(true);
  });

  it('reconnects after danmaku-drop (both modes) and keeps receiving', async () => {
    const { client, events } = connect(9200);
    const states: string[] = [];
    client.on('state', (s) => states.push(s));
    await waitFor(() => client.connected, 20_000, 'connected');
    for (const mode of ['terminate', 'close']) {
      const connects = client.stats.connects;
      const r = await post('/_sim/rooms/9200/faults', { kind: 'danmaku-drop', mode });
      expect(r.json.appliedToOpen).toBe(1);
      await waitFor(() => !client.connected, 20_000, 'disconnect');
      await waitFor(() => client.connected && client.stats.connects === connects + 1, 20_000, 'reconnect');
    }
    expect(states).toContain('waiting');
    await post('/_sim/rooms/9200/danmaku', { text: 'still here' });
    await waitFor(() => events.some((e) => e.type === 'DANMU_MSG' && e.text === 'still here'), 20_000, 'danmaku after reconnect');
  });

  it('keeps retrying while the API fails, and connects once it answers', async () => {
    await post('/_sim/rooms/9200/faults', { kind: 'api-malformed', variant: 'html', path: 'getDanmuInfo', count: 2 });
    const warnings: string[] = [];
    const { client } = connect(9200);
    client.on('warning', (w) => warnings.push(w.code));
    await waitFor(() => client.connected, 20_000, 'connected after failures');
    expect(warnings.filter((w) => w === 'DANMAKU_CONNECT').length).toBeGreaterThanOrEqual(1);
  });

  it('a refused auth is a warning; the client fetches a new token and gets in', async () => {
    const real = new BilibiliApiClient({ liveApiHost: sim.url }, ApiLimiter.create({ spacingMs: 0 }));
    let calls = 0;
    const api = {
      async getDanmuInfo(roomId: number) {
        const info = await real.getDanmuInfo(roomId);
        return ++calls === 1 ? { ...info, token: 'forged' } : info;
      },
    };
    const client = new DanmakuClient({ roomId: 9200, api, options: { danmakuRetryMs: 200, danmakuHeartbeatMs: 150 } });
    clients.push(client);
    const warnings: string[] = [];
    client.on('warning', (w) => warnings.push(w.code));
    client.start();
    await waitFor(() => client.connected, 20_000, 'connected with a fresh token');
    expect(client.stats.authFailures).toBe(1);
    expect(warnings).toContain('DANMAKU_AUTH');
    expect(calls).toBe(2);
  });

  it('a server that accepts but never answers is dropped and reconnected (no hang)', async () => {
    const silent = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((r) => silent.once('listening', r));
    const port = (silent.address() as AddressInfo).port;
    const api = { getDanmuInfo: async () => ({ token: 't', hosts: [{ host: '127.0.0.1', port: 0, wsPort: port, wssPort: 0 }] }) };
    const client = new DanmakuClient({ roomId: 1, api, options: { danmakuHeartbeatMs: 100, danmakuRetryMs: 100 } });
    clients.push(client);
    const warnings: string[] = [];
    client.on('warning', (w) => warnings.push(w.message));
    client.start();
    try {
      await waitFor(() => client.stats.connects >= 2, 20_000, 'a second connection');
      expect(client.connected).toBe(false);
      expect(warnings.some((w) => /no data from the danmaku server/.test(w))).toBe(true);
    } finally {
      client.stop();
      await new Promise((r) => silent.close(r));
    }
  });

  it('stops cleanly: no reconnect after stop()', async () => {
    const { client } = connect(9200);
    await waitFor(() => client.connected, 20_000, 'connected');
    client.stop();
    expect(client.currentState).toBe('stopped');
    await new Promise((r) => setTimeout(r, 500));
    expect(client.stats.connects).toBe(1);
  });
});
