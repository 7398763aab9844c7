// Cross-origin safety: without auth, foreign origins are refused and simple (form/text) requests never reach JSON
// endpoints; with auth, brec's CORS but never settings to another origin; same-origin and configured origins work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, startFixture, type ApiFixture } from '../api/fixture.js';

const EVIL = 'http://evil.example';
const UI = 'http://192.168.1.9:8080';
const basic = `Basic ${Buffer.from('admin:pw').toString('base64')}`;
const body = (r: { body: Buffer }): Record<string, unknown> => JSON.parse(r.body.toString()) as Record<string, unknown>;

describe('auth off (the default)', () => {
  let fx: ApiFixture;
  beforeAll(async () => {
    fx = await startFixture({ rooms: [{ roomId: 1001, autoRecord: true }], corsOrigins: [UI] });
    fx.recorder.config.global.Cookie = 'SESSDATA=secret-cookie';
  });
  afterAll(() => fx.close());
  const host = (): string => new URL(fx.url).host;

  it('a text/plain or form POST (no preflight) is refused and changes nothing', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain;charset=UTF-8']) {
      for (const headers of [{ origin: EVIL }, {}] as Record<string, string>[]) {
        const res = await rawRequest(fx.url, 'POST', '/api/room/1001/stop', { 'content-type': type, ...headers }, 'x');
        expect(res.status, type).toBe(415);
        expect(body(res).code).toBe(-15);
      }
      const add = await rawRequest(fx.url, 'POST', '/api/room', { 'content-type': type, origin: EVIL }, '{"roomId":5}');
      expect(add.status).toBe(415);
    }
    expect(fx.recorder.findRoom(1001)!.state.autoRecordForThisSession).toBe(true);
    expect(fx.recorder.rooms.map((r) => r.roomId)).toEqual([1001]);
  });

  it('a foreign origin is refused for every method, preflights included, and never sees the cookie', async () => {
    const pre = await rawRequest(fx.url, 'OPTIONS', '/api/room/1001/stop', { origin: EVIL, 'access-control-request-method': 'POST' });
    expect(pre.status).toBe(403);
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    for (const [method, path] of [['POST', '/api/room/1001/stop'], ['DELETE', '/api/room/1001'], ['GET', '/api/config/global'], ['GET', '/file/config.json'], ['GET', '/api/room']]) {
      for (const origin of [EVIL, 'null', `http://${host()}.evil.example`]) {
        const res = await rawRequest(fx.url, method!, path!, { origin, 'content-type': 'application/json' }, method === 'POST' ? '{}' : undefined);
        expect(res.status, `${method} ${path} ${origin}`).toBe(403);
        expect(body(res)).toMatchObject({ code: -16, message: expect.stringContaining('--http-cors-origin') });
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
        expect(res.body.toString()).not.toContain('secret-cookie');
      }
    }
    expect(fx.recorder.findRoom(1001)!.state.autoRecordForThisSession).toBe(true);
  });

  it('same-origin (the served WebUI) and the configured standalone origin keep working', async () => {
    const same = await rawRequest(fx.url, 'GET', '/api/config/global', { origin: fx.url });
    expect(same.status).toBe(200);
    expect(body(same).optionalCookie).toMatchObject({ value: 'SESSDATA=secret-cookie' });
    // Behind a proxy the Host may differ: the browser's Sec-Fetch-Site still marks the request as same-origin.
    const proxied = await rawRequest(fx.url, 'POST', '/api/room/1001/split', { origin: 'https://rec.example', 'sec-fetch-site': 'same-origin' });
    expect(proxied.status).toBe(200);
    const pre = await rawRequest(fx.url, 'OPTIONS', '/api/room', { origin: UI, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(UI);
    expect(pre.headers['access-control-allow-headers']).toBe('content-type');
    const cfg = await rawRequest(fx.url, 'GET', '/api/config/global', { origin: UI });
    expect(cfg.status).toBe(200);
    expect(cfg.headers['access-control-allow-origin']).toBe(UI);
    expect(cfg.headers['access-control-allow-credentials']).toBe('true');
    const stop = await rawRequest(fx.url, 'POST', '/api/room/1001/stop', { origin: UI, 'content-type': 'application/json' }, '{}');
    expect(stop.status).toBe(200);
    expect(fx.recorder.findRoom(1001)!.state.autoRecordForThisSession).toBe(false);
  });
});

describe('auth on', () => {
  let fx: ApiFixture;
  beforeAll(async () => {
    fx = await startFixture({ rooms: [{ roomId: 1001, autoRecord: true }], basicUser: 'admin', basicPass: 'pw' });
    fx.recorder.config.global.Cookie = 'SESSDATA=secret-cookie';
  });
  afterAll(() => fx.close());

  it("brec's CORS for any origin, but settings are never returned cross-origin", async () => {
    const pre = await rawRequest(fx.url, 'OPTIONS', '/api/room', { origin: EVIL, 'access-control-request-method': 'POST' });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(EVIL);
    const list = await rawRequest(fx.url, 'GET', '/api/room', { origin: EVIL, authorization: basic });
    expect(list.status).toBe(200);
    expect(list.headers['access-control-allow-origin']).toBe(EVIL);
    for (const path of ['/api/config/global', '/api/room/1001/config', '/file/config.json', '/file/config.backup.json', '/file/%63onfig.json', '/API/Config/Global/']) {
      const res = await rawRequest(fx.url, 'GET', path, { origin: EVIL, authorization: basic });
      expect(res.status, path).toBe(403);
      expect(res.body.toString()).not.toContain('secret-cookie');
    }
    const own = await rawRequest(fx.url, 'GET', '/api/config/global', { authorization: basic });
    expect(own.status).toBe(200);
    expect(own.body.toString()).toContain('secret-cookie');
  });
});
