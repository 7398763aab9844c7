// brec's --bind parsing and where the server actually listens.
import { describe, expect, it } from 'vitest';
import { parseBind } from '../../src/api/index.js';
import { startFixture } from './fixture.js';

describe('parseBind', () => {
  it.each([
    ['2356', { scheme: 'http', host: 'localhost', port: 2356, listen: { kind: 'loopback' } }],
    ['8080', { scheme: 'http', host: 'localhost', port: 8080, listen: { kind: 'loopback' } }],
    ['http://localhost', { scheme: 'http', host: 'localhost', port: 2356, listen: { kind: 'loopback' } }],
    ['http://*:2356', { scheme: 'http', host: '*', port: 2356, listen: { kind: 'any' } }],
    ['http://+:80/ignored/path', { scheme: 'http', host: '+', port: 80, listen: { kind: 'any' } }],
    ['http://0.0.0.0:9000', { scheme: 'http', host: '0.0.0.0', port: 9000, listen: { kind: 'address', address: '0.0.0.0' } }],
    ['http://192.168.1.2', { scheme: 'http', host: '192.168.1.2', port: 2356, listen: { kind: 'address', address: '192.168.1.2' } }],
    ['HTTPS://rec.example.com:443', { scheme: 'https', host: 'rec.example.com', port: 443, listen: { kind: 'any' } }],
    ['http://[::1]:3000', { scheme: 'http', host: '[::1]', port: 3000, listen: { kind: 'address', address: '::1' } }],
  ])('%s', (bind, expected) => {
    expect(parseBind(bind)).toEqual(expected);
  });

  it.each(['', 'nonsense', 'ftp://x', 'http://x:99999', '70000'])('falls back to http://localhost:2356 for %j', (bind) => {
    expect(parseBind(bind)).toEqual({ scheme: 'http', host: 'localhost', port: 2356, listen: { kind: 'loopback' } });
  });
});

describe('startApiServer binding', () => {
  it('a bare port listens on loopback only, with an ephemeral port reported', async () => {
    const fx = await startFixture({ bind: 0, rooms: [] });
    try {
      expect(fx.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(fx.api.servers.every((s) => { const a = s.address(); return typeof a === 'object' && a !== null && (a.address === '127.0.0.1' || a.address === '::1'); })).toBe(true);
      expect((await fetch(`${fx.url}/api/version`)).status).toBe(200);
    } finally {
      await fx.close();
    }
  });

  it('http://*:0 listens on every interface; https without a certificate is refused with a coded error', async () => {
    const fx = await startFixture({ bind: 'http://*:0', rooms: [] });
    try {
      const a = fx.api.servers[0]!.address();
      expect(typeof a === 'object' && a !== null && ['::', '0.0.0.0'].includes(a.address)).toBe(true);
      expect((await fetch(`${fx.url}/api/version`)).status).toBe(200);
    } finally {
      await fx.close();
    }
    await expect(startFixture({ bind: 'https://localhost:0', rooms: [] })).rejects.toMatchObject({ code: 'API_TLS_REQUIRED' });
  });
});
