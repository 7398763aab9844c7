// Contract: the OpenAPI document is valid and complete, every route's every response matches it, room fields exactly.
import { Validator } from '@seriousme/openapi-schema-validator';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { RecentDeliveries } from '../../src/webhook/recent-deliveries.js';
import { startFixture, type ApiFixture } from './fixture.js';
import { control, startSim } from '../simulator/helpers.js';
import { SchemaChecker } from './schema-check.js';
import { PostQueue } from '../../src/post/queue.js';
import { serviceRunner } from '../../src/post/runners.js';
import { DEFAULT_SETTINGS } from '../post/queue-fixture.js';

const recent = new RecentDeliveries(10);
recent.update({ key: 'k1', eventId: '7d7c6f0e-2a53-4f6e-9d3c-1f0a2b3c4d5e', eventType: 'FileClosed', version: 2, url: 'http://127.0.0.1:9/hook', createdAt: Date.now() }, { attempts: 3, state: 'given-up', lastError: 'connect ECONNREFUSED', lastErrorCode: 'WEBHOOK_NETWORK', finishedAt: Date.now() });
recent.update({ key: 'k2', eventId: '0b9f2c52-3c1d-4b8e-8f4a-5a6b7c8d9e0f', eventType: 'SessionStarted', version: 1, url: 'http://127.0.0.1:9/v1', createdAt: Date.now() }, { attempts: 1, state: 'retrying', lastStatus: 500, nextAttemptAt: Date.now() + 1000 });

const KNOWN_EVENT = '7d7c6f0e-2a53-4f6e-9d3c-1f0a2b3c4d5e';
let fx: ApiFixture;
let doc: Record<string, any>;
let checker: SchemaChecker;
let queue: PostQueue | undefined;
const covered = new Set<string>();

/** Calls a route and checks the response against the documented schema of its status. */
async function hit(method: string, template: string, path: string, body?: unknown, expected?: number): Promise<any> {
  const res = await fx.call(method, path, body);
  if (expected !== undefined) expect(res.status, `${method} ${path}`).toBe(expected);
  covered.add(`${method.toUpperCase()} ${template} ${res.status}`);
  return checker.expectDocumented(res, method, template);
}

beforeAll(async () => {
  // The outbox's replay is exercised for real in test/web/metrics.test.ts; here only the API's shapes matter.
  // Clips go to a real post-job queue on the fixture's work directory (created once the fixture is).
  fx = await startFixture({ clips: { enqueue: (roomId, source, params) => queue!.enqueueClip(roomId, source, params) }, deliveries: () => recent.list(), replayDelivery: async (id) => (id === KNOWN_EVENT ? { ok: false, status: 500, error: 'HTTP 500' } : null) });
  mkdirSync(join(fx.workDir, 'sub'));
  writeFileSync(join(fx.workDir, 'sub', 'a.flv'), 'FLV');
  doc = (await (await fetch(`${fx.url}/swagger/brec/swagger.json`)).json()) as Record<string, any>;
  checker = new SchemaChecker(doc);
  queue = new PostQueue({ workDir: fx.workDir, settings: () => ({ ...DEFAULT_SETTINGS }), runner: serviceRunner, emit: () => undefined });
  queue.start();
});
afterAll(async () => {
  await queue?.close();
  await fx?.close();
});

describe('the OpenAPI document', () => {
  it('passes an OpenAPI 3 validator, and JSON and YAML are the same document', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const yaml = await fetch(`${fx.url}/swagger/brec/swagger.yaml`);
    expect(yaml.status).toBe(200);
    expect(yaml.headers.get('content-type')).toBe('application/yaml; charset=utf-8');
    expect(YAML.parse(await yaml.text())).toEqual(doc);
    expect(doc.info.title).toBe('录播姬 REST API');
  });

  it('lists every route of the brec surface (lowercase paths) plus webhook deliveries', () => {
    const ops = Object.entries(doc.paths as Record<string, object>).flatMap(([p, o]) => Object.keys(o).map((m) => `${m.toUpperCase()} ${p}`));
    expect(ops.sort()).toEqual([
      'GET /api/config/default', 'GET /api/config/global', 'GET /api/file', 'GET /api/log/fetch',
      'GET /api/room', 'GET /api/version', 'GET /api/webhook/deliveries', 'POST /api/config/global', 'POST /api/misc/generatefilename', 'POST /api/room',
      // brec's two per-room families: {roomId} (int32) and {objectId} (uuid).
      ...['roomId', 'objectId'].flatMap((p) => [
        `DELETE /api/room/{${p}}`, `GET /api/room/{${p}}`, `GET /api/room/{${p}}/config`, `GET /api/room/{${p}}/iostats`, `GET /api/room/{${p}}/stats`,
        `POST /api/room/{${p}}/config`, `POST /api/room/{${p}}/refresh`, `POST /api/room/{${p}}/split`, `POST /api/room/{${p}}/start`, `POST /api/room/{${p}}/stop`,
        // liverec addition: the live preview and its markers (docs/clips.md).
        `GET /api/room/{${p}}/live.flv`, `GET /api/room/{${p}}/live.mp4`, `GET /api/room/{${p}}/live.ts`, `POST /api/room/{${p}}/live-marker`,
      ]),
      // liverec additions: the event stream and the web UI's webhook buttons.
      'GET /api/events', 'POST /api/webhook/replay', 'POST /api/webhook/test',
      // liverec addition: the rooms' last hour for the UI's charts.
      'GET /api/history',
      // liverec addition: post-file jobs (docs/post-processing.md).
      'GET /api/jobs', 'GET /api/retention', 'POST /api/notify/test',
      // liverec addition: clips, danmaku heat and markers (docs/clips.md).
      'GET /api/clips', 'POST /api/clips', 'GET /api/clips/suggestions', 'GET /api/file/danmaku-density',
      'GET /api/file/markers', 'POST /api/file/markers', 'DELETE /api/file/markers/{markerId}',
      // liverec addition: accounts (docs/accounts.md).
      'GET /api/accounts', 'POST /api/accounts/qrcode', 'GET /api/accounts/qrcode/{key}', 'DELETE /api/accounts/{uid}', 'POST /api/accounts/{uid}/refresh',
    ].sort());
  });
});

describe('every route answers as documented', () => {
  it('room resource', async () => {
    const rooms = await hit('GET', '/api/room', '/api/room', undefined, 200);
    expect(rooms.map((r: any) => r.roomId)).toEqual([1001, 1002]);
    await hit('POST', '/api/room', '/api/room', { roomId: 1003, autoRecord: true }, 200);
    expect((await hit('POST', '/api/room', '/api/room', { roomId: 1003, autoRecord: false }, 200)).autoRecord).toBe(false);
    expect(await hit('POST', '/api/room', '/api/room', { roomId: 0 }, 400)).toEqual({ code: -2, message: 'Roomid must be greater than 0.' });
    expect((await hit('POST', '/api/room', '/api/room', { roomId: -5 }, 400)).code).toBe(-2);
    expect((await hit('POST', '/api/room', '/api/room', {}, 400)).code).toBe(-2);
    expect((await hit('POST', '/api/room', '/api/room', '{"roomId": 1', 400)).code).toBe(-10);
    const wrong = await hit('POST', '/api/room', '/api/room', { roomId: 'x' }, 400);
    expect(wrong.message).toContain('roomId');
    for (const [template, suffix] of [['/api/room/{id}', ''], ['/api/room/{id}/stats', '/stats'], ['/api/room/{id}/iostats', '/ioStats'], ['/api/room/{id}/config', '/config']] as const) {
      await hit('GET', template, `/api/room/1001${suffix}`, undefined, 200);
      expect((await hit('GET', template, `/api/room/4242${suffix}`, undefined, 404)).code).toBe(-4);
      expect((await hit('GET', template, `/api/room/0${suffix}`, undefined, 400)).code).toBe(-2);
    }
    for (const action of ['start', 'stop', 'split', 'refresh']) {
      const template = `/api/room/{id}/${action}`;
      expect((await hit('POST', template, `/api/room/1001/${action}`, undefined, 200)).roomId).toBe(1001);
      expect((await hit('POST', template, `/api/room/4242/${action}`, undefined, 404)).code).toBe(-4);
      expect((await hit('POST', template, `/api/room/-1/${action}`, undefined, 400)).code).toBe(-2);
    }
    expect((await hit('DELETE', '/api/room/{id}', '/api/room/1003', undefined, 200)).roomId).toBe(1003);
    expect((await hit('DELETE', '/api/room/{id}', '/api/room/1003', undefined, 404)).code).toBe(-4);
    expect((await hit('DELETE', '/api/room/{id}', '/api/room/0', undefined, 400)).code).toBe(-2);
  });

  it('config', async () => {
    const defaults = await hit('GET', '/api/config/default', '/api/config/default', undefined, 200);
    expect(defaults).toMatchObject({ recordMode: 0, cuttingNumber: 100, danmakuTransport: 3, timingApiBlockedPause: 120_000, titleFilterPatterns: '' });
    await hit('GET', '/api/config/global', '/api/config/global', undefined, 200);
    await hit('POST', '/api/config/global', '/api/config/global', { optionalCookie: { hasValue: true, value: 'a=b' } }, 200);
    expect((await hit('POST', '/api/config/global', '/api/config/global', { optionalCookie: { hasValue: true, value: 1 } }, 400)).message).toContain('optionalCookie');
    await hit('POST', '/api/room/{id}/config', '/api/room/1001/config', { optionalCuttingMode: { hasValue: true, value: 1 } }, 200);
    await hit('POST', '/api/room/{id}/config', '/api/room/1001/config', { optionalCuttingMode: { hasValue: true, value: 9 } }, 400);
    await hit('POST', '/api/room/{id}/config', '/api/room/4242/config', {}, 404);
    await hit('POST', '/api/room/{id}/config', '/api/room/0/config', {}, 400);
  });

  it('file, log, misc, version, webhook deliveries', async () => {
    const root = await hit('GET', '/api/file', '/api/file?path=/', undefined, 200);
    expect(root.exist).toBe(true);
    expect(await hit('GET', '/api/file', '/api/file?path=/sub/', undefined, 200)).toMatchObject({ exist: true, path: '/sub/', files: [{ isFolder: false, name: 'a.flv', size: 3, url: '/file/sub/a.flv' }] });
    expect(await hit('GET', '/api/file', '/api/file?path=/nope/', undefined, 200)).toEqual({ exist: false, path: '', files: [] });
    await hit('GET', '/api/file', '/api/file?path=a&path=b', undefined, 400);

    const all = await hit('GET', '/api/log/fetch', '/api/log/fetch', undefined, 200);
    expect(all.continuous).toBe(false);
    const next = await hit('GET', '/api/log/fetch', `/api/log/fetch?after=${all.cursor}`, undefined, 200);
    expect(next.continuous).toBe(all.cursor > 0);
    expect((await hit('GET', '/api/log/fetch', '/api/log/fetch?after=abc', undefined, 400)).message).toContain('after');

    const ok = await hit('POST', '/api/misc/generatefilename', '/api/misc/generateFileName', { template: '{{ roomId }}/{{ title }}', context: { roomId: 1, title: 'a/b', json: '{}' } }, 200);
    expect(ok).toEqual({ status: 0, errorMessage: null, relativePath: '1/a/b.flv', fullPath: '/1/a/b.flv' });
    expect((await hit('POST', '/api/misc/generatefilename', '/api/misc/generatefilename', { template: '{{ roomId', context: {} }, 200)).status).toBe(1);
    expect((await hit('POST', '/api/misc/generatefilename', '/api/misc/generatefilename', { template: '{{ json.room_info.cover }}', context: { json: '{"room_info":{"cover":"c"}}' } }, 200)).relativePath).toBe('c.flv');
    expect((await hit('POST', '/api/misc/generatefilename', '/api/misc/generatefilename', { template: 'x', context: { json: '{bad' } }, 400)).message).toContain('context.json');
    // context is nullable (as in brec's document): null or absent renders with every value at its default.
    expect((await hit('POST', '/api/misc/generatefilename', '/api/misc/generatefilename', { template: 'x' }, 200)).relativePath).toBe('x.flv');
    expect((await hit('POST', '/api/misc/generatefilename', '/api/misc/generatefilename', { template: '{{ roomId }}', context: null }, 200)).relativePath).toBe('0.flv');
    expect((await hit('POST', '/api/misc/generatefilename', '/api/misc/generatefilename', { template: 'x', context: 5 }, 400)).message).toContain('context');

    const version = await hit('GET', '/api/version', '/api/version', undefined, 200);
    expect(Object.keys(version)).toHaveLength(33);
    expect(version).toMatchObject({ major: '0', minor: '1', patch: '0', fullSemVer: '0.1.0' });

    const deliveries = await hit('GET', '/api/webhook/deliveries', '/api/webhook/deliveries', undefined, 200);
    expect(deliveries.map((d: any) => d.eventType)).toEqual(['SessionStarted', 'FileClosed']);

    expect(await hit('GET', '/api/jobs', '/api/jobs', undefined, 200)).toEqual([]);
    expect(await hit('GET', '/api/retention', '/api/retention', undefined, 200)).toMatchObject({ enabled: false, deletions: [] });
    expect(await hit('POST', '/api/notify/test', '/api/notify/test', undefined, 200)).toEqual([]);
  });

  it('event stream and webhook actions (liverec)', async () => {
    const ac = new AbortController();
    const res = await fetch(`${fx.url}/api/events`, { signal: ac.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const first = new TextDecoder().decode((await res.body!.getReader().read()).value);
    expect(first).toContain('retry: 3000');
    ac.abort();
    covered.add('GET /api/events 200');
    expect((await hit('GET', '/api/events', '/api/events?room=x', undefined, 400)).code).toBe(-10);

    expect(await hit('POST', '/api/webhook/test', '/api/webhook/test', {}, 200)).toEqual([]);
    const url = 'http://127.0.0.1:9/hook';
    expect(await hit('POST', '/api/webhook/replay', '/api/webhook/replay', { eventId: KNOWN_EVENT, url }, 200)).toEqual({ url, ok: false, status: 500, error: 'HTTP 500' });
    expect((await hit('POST', '/api/webhook/replay', '/api/webhook/replay', { eventId: '0b9f2c52-3c1d-4b8e-8f4a-5a6b7c8d9e0f', url }, 404)).code).toBe(-12);
    expect((await hit('POST', '/api/webhook/replay', '/api/webhook/replay', { eventId: 'nope', url }, 400)).message).toContain('eventId');
  });

  it('rooms\' history (liverec)', async () => {
    const all = await hit('GET', '/api/history', '/api/history', undefined, 200);
    expect(all.intervalMs).toBeGreaterThan(0);
    expect(all.rooms.map((r: any) => r.roomId)).toEqual(expect.arrayContaining([1001, 1002]));
    const one = await hit('GET', '/api/history', '/api/history?room=1001', undefined, 200);
    expect(one.rooms.map((r: any) => r.roomId)).toEqual([1001]);
    expect(one.rooms[0].t.length).toBeGreaterThan(0);
    expect(one.rooms[0].pace[0]).toBeNull();
    expect((await hit('GET', '/api/history', '/api/history?room=x', undefined, 400)).code).toBe(-10);
  });

  it('clips, danmaku heat and markers (liverec)', async () => {
    writeFileSync(join(fx.workDir, 'sub', 'a.xml'), '<?xml version="1.0" encoding="utf-8"?>\n<i>\n  <d p="1.5,1,25,16777215,0,0,1,0" user="u">hi</d>\n  <gift ts="12" user="u" uid="1" giftname="g" giftcount="1" />\n</i>\n');
    writeFileSync(join(fx.workDir, 'sub', 'broken.xml'), '<i><d p="1');
    writeFileSync(join(fx.workDir, 'sub', 'b.flv'), 'FLV');
    writeFileSync(join(fx.workDir, 'sub', 'b.markers.json'), '{not json');
    const heat = await hit('GET', '/api/file/danmaku-density', '/api/file/danmaku-density?path=sub/a.flv&bucketS=10', undefined, 200);
    expect(heat.totals).toEqual({ danmaku: 1, superChats: 0, gifts: 1, guards: 0 });
    expect((await hit('GET', '/api/file/danmaku-density', '/api/file/danmaku-density?path=sub/broken.xml', undefined, 400)).code).toBe(-10);
    expect((await hit('GET', '/api/file/danmaku-density', '/api/file/danmaku-density?path=sub/b.flv', undefined, 404)).code).toBe(-12);
    expect((await hit('GET', '/api/clips/suggestions', '/api/clips/suggestions?path=sub/a.xml&windowS=5', undefined, 200)).suggestions).toHaveLength(2);
    await hit('GET', '/api/clips/suggestions', '/api/clips/suggestions?path=sub/a.xml&count=0', undefined, 400);
    await hit('GET', '/api/clips/suggestions', '/api/clips/suggestions?path=../a.xml', undefined, 404);
    const clip = await hit('POST', '/api/clips', '/api/clips', { path: 'sub/a.flv', startMs: 0, endMs: 1000 }, 202);
    expect(clip).toMatchObject({ path: 'sub/a.flv', state: 'pending', format: 'mp4', danmaku: true });
    await hit('POST', '/api/clips', '/api/clips', { path: 'sub/a.flv', startMs: 5, endMs: 1 }, 400);
    await hit('POST', '/api/clips', '/api/clips', { path: 'sub/none.flv', startMs: 0, endMs: 1 }, 404);
    await hit('GET', '/api/clips', '/api/clips', undefined, 200);
    const m = await hit('POST', '/api/file/markers', '/api/file/markers', { path: 'sub/a.flv', atMs: 1500, label: 'x' }, 200);
    await hit('POST', '/api/file/markers', '/api/file/markers', { path: 'sub/a.flv', atMs: -1 }, 400);
    await hit('POST', '/api/file/markers', '/api/file/markers', { path: 'sub/none.flv', atMs: 1 }, 404);
    expect((await hit('GET', '/api/file/markers', '/api/file/markers?path=sub/a.flv', undefined, 200)).markers).toEqual([m]);
    await hit('GET', '/api/file/markers', '/api/file/markers?path=sub/b.flv', undefined, 400);
    await hit('GET', '/api/file/markers', '/api/file/markers?path=sub/none.flv', undefined, 404);
    expect((await hit('DELETE', '/api/file/markers/{markerId}', `/api/file/markers/${m.id}?path=sub/a.flv`, undefined, 200)).markers).toEqual([]);
    await hit('DELETE', '/api/file/markers/{markerId}', `/api/file/markers/${m.id}?path=sub/a.flv`, undefined, 404);
    await hit('DELETE', '/api/file/markers/{markerId}', '/api/file/markers/x?path=sub/b.flv', undefined, 400);
  });

  it('live preview and live markers (liverec)', async () => {
    // Room 1001 records nothing here (the live API is unreachable): 409; the streaming 200 and a live marker's 200 are
    // asserted against a recording room in test/web/live-preview.test.ts.
    expect((await hit('GET', '/api/room/{id}/live.flv', '/api/room/1001/live.flv', undefined, 409)).code).toBe(-10);
    expect((await hit('GET', '/api/room/{id}/live.flv', '/api/room/4242/live.flv', undefined, 404)).code).toBe(-4);
    expect((await hit('GET', '/api/room/{id}/live.flv', '/api/room/0/live.flv', undefined, 400)).code).toBe(-2);
    await hit('POST', '/api/config/global', '/api/config/global', { optionalPreviewMaxViewers: { hasValue: true, value: 0 } }, 200);
    expect((await hit('GET', '/api/room/{id}/live.flv', '/api/room/1001/live.flv', undefined, 429)).code).toBe(-17);
    await hit('POST', '/api/config/global', '/api/config/global', { optionalPreviewMaxViewers: { hasValue: false } }, 200);
    covered.add('GET /api/room/{id}/live.flv 200');
    const embedded = await fx.call('GET', '/api/room/1001/live.flv', undefined, { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'video' });
    expect(embedded.status).toBe(403);
    covered.add('GET /api/room/{id}/live.flv 403');
    checker.expectDocumented(embedded, 'GET', '/api/room/{id}/live.flv');
    expect((await hit('POST', '/api/room/{id}/live-marker', '/api/room/1001/live-marker', {}, 409)).code).toBe(-10);
    expect((await hit('POST', '/api/room/{id}/live-marker', '/api/room/4242/live-marker', {}, 404)).code).toBe(-4);
    expect((await hit('POST', '/api/room/{id}/live-marker', '/api/room/0/live-marker', {}, 400)).code).toBe(-2);
    covered.add('POST /api/room/{id}/live-marker 200');
    // live.ts: the same answers; its 200 against an HLS TS room in test/preview/live-ts.test.ts.
    expect((await hit('GET', '/api/room/{id}/live.ts', '/api/room/1001/live.ts', undefined, 409)).code).toBe(-10);
    expect((await hit('GET', '/api/room/{id}/live.ts', '/api/room/4242/live.ts', undefined, 404)).code).toBe(-4);
    expect((await hit('GET', '/api/room/{id}/live.ts', '/api/room/0/live.ts', undefined, 400)).code).toBe(-2);
    await hit('POST', '/api/config/global', '/api/config/global', { optionalPreviewMaxViewers: { hasValue: true, value: 0 } }, 200);
    expect((await hit('GET', '/api/room/{id}/live.ts', '/api/room/1001/live.ts', undefined, 429)).code).toBe(-17);
    await hit('POST', '/api/config/global', '/api/config/global', { optionalPreviewMaxViewers: { hasValue: false } }, 200);
    const embeddedTs = await fx.call('GET', '/api/room/1001/live.ts', undefined, { 'sec-fetch-site': 'same-site', 'sec-fetch-dest': 'video' });
    expect(embeddedTs.status).toBe(403);
    covered.add('GET /api/room/{id}/live.ts 403');
    covered.add('GET /api/room/{id}/live.ts 200');
    // live.mp4: the same answers; its 200 against an HLS fMP4 room in test/preview/live-mp4.test.ts.
    expect((await hit('GET', '/api/room/{id}/live.mp4', '/api/room/1001/live.mp4', undefined, 409)).code).toBe(-10);
    expect((await hit('GET', '/api/room/{id}/live.mp4', '/api/room/4242/live.mp4', undefined, 404)).code).toBe(-4);
    expect((await hit('GET', '/api/room/{id}/live.mp4', '/api/room/0/live.mp4', undefined, 400)).code).toBe(-2);
    await hit('POST', '/api/config/global', '/api/config/global', { optionalPreviewMaxViewers: { hasValue: true, value: 0 } }, 200);
    expect((await hit('GET', '/api/room/{id}/live.mp4', '/api/room/1001/live.mp4', undefined, 429)).code).toBe(-17);
    await hit('POST', '/api/config/global', '/api/config/global', { optionalPreviewMaxViewers: { hasValue: false } }, 200);
    const embeddedMp4 = await fx.call('GET', '/api/room/1001/live.mp4', undefined, { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'video' });
    expect(embeddedMp4.status).toBe(403);
    covered.add('GET /api/room/{id}/live.mp4 403');
    covered.add('GET /api/room/{id}/live.mp4 200');
  });

  it('accounts (liverec)', async () => {
    expect(await hit('GET', '/api/accounts', '/api/accounts', undefined, 200)).toEqual([]);
    // LiveApiHost is unreachable here: the login service cannot be asked.
    expect((await hit('POST', '/api/accounts/qrcode', '/api/accounts/qrcode', undefined, 502)).code).toBe(-1);
    const { sim, url, close } = await startSim();
    const before = fx.recorder.config.global.LiveApiHost;
    fx.recorder.config.global.LiveApiHost = url;
    try {
      const keys: string[] = [];
      for (let i = 0; i < 16; i++) keys.push((await hit('POST', '/api/accounts/qrcode', '/api/accounts/qrcode', undefined, 200)).key);
      expect((await hit('POST', '/api/accounts/qrcode', '/api/accounts/qrcode', undefined, 429)).code).toBe(-17);
      expect(await hit('GET', '/api/accounts/qrcode/{key}', `/api/accounts/qrcode/${keys[0]}`, undefined, 200)).toEqual({ state: 'waiting' });
      expect((await hit('GET', '/api/accounts/qrcode/{key}', '/api/accounts/qrcode/0123', undefined, 404)).code).toBe(-12);
      await control(url, `/_sim/qrcode/${keys[1]}/confirm`, { uid: 321 });
      await new Promise((r) => setTimeout(r, 1100));
      expect(await hit('GET', '/api/accounts/qrcode/{key}', `/api/accounts/qrcode/${keys[1]}`, undefined, 200)).toEqual({ state: 'confirmed', uid: 321 });
      expect((await hit('POST', '/api/accounts/{uid}/refresh', '/api/accounts/321/refresh', undefined, 200)).state).toBe('valid');
      expect((await hit('POST', '/api/accounts/{uid}/refresh', '/api/accounts/999/refresh', undefined, 404)).code).toBe(-12);
      expect(await hit('DELETE', '/api/accounts/{uid}', '/api/accounts/321', undefined, 200)).toEqual({ removed: 321 });
      expect((await hit('DELETE', '/api/accounts/{uid}', '/api/accounts/321', undefined, 404)).code).toBe(-12);
      expect(sim.passport.accounts.has(321)).toBe(true);
    } finally {
      fx.recorder.config.global.LiveApiHost = before;
      await close();
    }
  });

  it('covered every documented status of every operation', () => {
    const documented = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([p, ops]) =>
      // Both per-room families ({roomId}, {objectId}) are one route, covered as /api/room/{id}.
      Object.entries(ops).flatMap(([m, op]) => Object.keys(op.responses).map((s) => `${m.toUpperCase()} ${p.replace(/\{(roomId|objectId)\}/, '{id}')} ${s}`)));
    expect(documented.filter((d) => !covered.has(d))).toEqual([]);
  });
});

describe('the room resource, field by field', () => {
  it('matches the reset state exactly: names, order, types, "NaN", unset dates, null streamHost', async () => {
    const res = await fx.call('GET', '/api/room/1002', undefined, { accept: 'application/json' });
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await res.text();
    const room = JSON.parse(text);
    expect(Object.keys(room)).toEqual(['objectId', 'roomId', 'autoRecord', 'shortId', 'name', 'uid', 'title', 'areaNameParent',
      'areaNameChild', 'recording', 'streaming', 'danmakuConnected', 'autoRecordForThisSession', 'recordingStats', 'ioStats',
      'recordingCodec', 'waitingForDiskSpace', 'unavailableReason', 'recordingSource', 'gaps']); // brec's members in brec's order; liverec's additions last
    expect(room.objectId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(room).toMatchObject({ roomId: 1002, autoRecord: false, shortId: 0, name: '', uid: 0, title: '', areaNameParent: '', areaNameChild: '',
      recording: false, streaming: false, danmakuConnected: false, autoRecordForThisSession: true, recordingCodec: '', waitingForDiskSpace: false, unavailableReason: null, recordingSource: null, gaps: [] });
    expect(room.recordingStats).toEqual({
      sessionDuration: 0, totalInputBytes: 0, totalOutputBytes: 0, currentFileSize: 0, sessionMaxTimestamp: 0, fileMaxTimestamp: 0,
      addedDuration: 0, passedTime: 0, durationRatio: 'NaN', inputVideoBytes: 0, inputAudioBytes: 0, outputVideoFrames: 0,
      outputAudioFrames: 0, outputVideoBytes: 0, outputAudioBytes: 0, totalInputVideoBytes: 0, totalInputAudioBytes: 0,
      totalOutputVideoFrames: 0, totalOutputAudioFrames: 0, totalOutputVideoBytes: 0, totalOutputAudioBytes: 0,
    });
    expect(Object.keys(room.recordingStats)).toHaveLength(21);
    expect(room.ioStats).toEqual({ streamHost: null, startTime: '0001-01-01T00:00:00+00:00', endTime: '0001-01-01T00:00:00+00:00',
      duration: 0, networkBytesDownloaded: 0, networkMbps: 0, diskWriteDuration: 0, diskBytesWritten: 0, diskMBps: 0 });
    expect(Object.keys(room.ioStats)).toHaveLength(9);
    expect(text).toContain('"durationRatio":"NaN"');
    expect(text).toContain('"streamHost":null');
  });

  it('serialises live mirror values: ±Infinity strings, real times as +00:00, the stream host', async () => {
    const room = fx.recorder.findRoom(1002)!;
    room.apply({ ioStats: { streamHost: 'cn-gotcha01.bilivideo.com', startTime: Date.UTC(2024, 2, 17, 4, 34, 54, 120),
      endTime: Date.UTC(2024, 2, 17, 4, 34, 56), duration: 1880, networkBytesDownloaded: 524288, networkMbps: 2.2, diskWriteDuration: 0,
      diskBytesWritten: 100, diskMBps: Number.POSITIVE_INFINITY } });
    room.apply({ recordingStats: { ...room.recordingStats, durationRatio: Number.NEGATIVE_INFINITY, sessionDuration: 12.5 } });
    const dto = await hit('GET', '/api/room/{id}', '/api/room/1002', undefined, 200);
    expect(dto.ioStats).toMatchObject({ streamHost: 'cn-gotcha01.bilivideo.com', startTime: '2024-03-17T04:34:54.12+00:00', endTime: '2024-03-17T04:34:56+00:00', diskMBps: 'Infinity' });
    expect(dto.recordingStats).toMatchObject({ durationRatio: '-Infinity', sessionDuration: 12.5 });
    expect(await hit('GET', '/api/room/{id}/iostats', '/api/room/1002/iostats', undefined, 200)).toEqual(dto.ioStats);
    expect(await hit('GET', '/api/room/{id}/stats', '/api/room/1002/stats', undefined, 200)).toEqual(dto.recordingStats);
  });
});
