// Basic auth, the open-access guard (412) and CORS, through real servers.
import { describe, expect, it } from 'vitest';
import { guardVerdict, isLocalAddress, isLocalHost } from '../../src/api/index.js';
import { rawRequest, startFixture } from './fixture.js';

const basic = (user: string, pass: string): string => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

describe('basic auth', () => {
  it('401 with WWW-Authenticate without the exact credentials; everything works with them; preflights pass', async () => {
    const fx = await startFixture({ basicUser: 'admin', basicPass: 'p@ss:wörd', rooms: [] });
    try {
      for (const auth of [undefined, basic('admin', 'wrong'), basic('admin', 'p@ss:wörd').toLowerCase(), 'Bearer x', 'Basic']) {
        const res = await fx.call('GET', '/api/room', undefined, auth ? { authorization: auth } : {});
        expect(res.status, String(auth)).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="liverec /);
        expect(await res.json()).toMatchObject({ code: -14 });
      }
      const html = await fx.call('GET', '/swagger/', undefined, { accept: 'text/html' });
      expect(html.status).toBe(401);
      expect(html.headers.get('content-type')).toContain('text/html');
      // The scheme matches case-insensitively and the credentials are trimmed, as brec does.
      for (const auth of [basic('admin', 'p@ss:wörd'), `basic   ${basic('admin', 'p@ss:wörd').slice(6)}  `]) {
        expect((await fx.call('GET', '/api/room', undefined, { authorization: auth })).status).toBe(200);
      }
      for (const path of ['/file/config.json', '/swagger/brec/swagger.json', '/api/nope']) {
        expect((await fx.call('GET', path)).status, path).toBe(401);
      }
      const pre = await fx.call('OPTIONS', '/api/room', undefined, { origin: 'http://ui.example', 'access-control-request-method': 'POST' });
      expect(pre.status).toBe(204);
      // Auth configured: the guard is off, proxies are fine.
      expect((await fx.call('GET', '/api/room', undefined, { authorization: basic('admin', 'p@ss:wörd'), 'x-forwarded-for': '1.2.3.4' })).status).toBe(200);
    } finally {
      await fx.close();
    }
  });

  it('takes credentials from BREC_HTTP_BASIC_USER / _PASS; a missing half is empty', async () => {
    const fx = await startFixture({ env: { BREC_HTTP_BASIC_USER: 'u' }, rooms: [] });
    try {
      expect((await fx.call('GET', '/api/version')).status).toBe(401);
      expect((await fx.call('GET', '/api/version', undefined, { authorization: basic('u', '') })).status).toBe(200);
    } finally {
      await fx.close();
    }
  });
});

describe('open-access guard', () => {
  it('412 for proxy headers and non-local Host headers; local access passes', async () => {
    const fx = await startFixture({ rooms: [] });
    try {
      expect((await rawRequest(fx.url, 'GET', '/api/version')).status).toBe(200);
      for (const host of ['localhost:2356', '127.0.0.1', '[::1]:2356', '192.168.1.20:2356', '10.0.0.5', '[fe80::1]', 'rec.localhost']) {
        expect((await rawRequest(fx.url, 'GET', '/api/version', { host })).status, host).toBe(200);
      }
      for (const host of ['example.com', 'rec.example.com:2356', '8.8.8.8', '[2001:db8::1]', 'localhost.evil.com']) {
        const res = await rawRequest(fx.url, 'GET', '/api/version', { host });
        expect(res.status, host).toBe(412);
        expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
        expect(res.body.toString()).toContain('BREC_HTTP_OPEN_ACCESS');
      }
      for (const h of ['x-real-ip', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'via', 'forwarded']) {
        const res = await rawRequest(fx.url, 'GET', '/api/room', { [h]: '203.0.113.7', accept: 'text/html' });
        expect(res.status, h).toBe(412);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.body.toString()).toContain('BREC_HTTP_BASIC_USER');
      }
    } finally {
      await fx.close();
    }
  });

  it('is off with openAccess or BREC_HTTP_OPEN_ACCESS', async () => {
    for (const opts of [{ openAccess: true }, { env: { BREC_HTTP_OPEN_ACCESS: '1' } }]) {
      const fx = await startFixture({ ...opts, rooms: [] });
      try {
        expect((await rawRequest(fx.url, 'GET', '/api/version', { host: 'example.com', 'x-forwarded-for': '1.2.3.4' })).status).toBe(200);
      } finally {
        await fx.close();
      }
    }
  });

  it('classifies source addresses and hosts', () => {
    for (const ip of ['127.0.0.1', '127.8.9.1', '::1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.0.1', '169.254.1.1', '::ffff:192.168.1.1', 'fe80::1%eth0', 'fd12::1', 'fc00::1']) {
      expect(isLocalAddress(ip), ip).toBe(true);
    }
    for (const ip of ['8.8.8.8', '172.32.0.1', '172.15.0.1', '100.64.0.1', '::ffff:8.8.8.8', '2001:db8::1', '::', 'not-an-ip', '']) {
      expect(isLocalAddress(ip), ip).toBe(false);
    }
    expect(isLocalHost('LOCALHOST:80')).toBe(true);
    expect(isLocalHost('localhost.')).toBe(true);
    expect(isLocalHost('[::1]')).toBe(true);
    expect(isLocalHost('github.com')).toBe(false);
    expect(guardVerdict('8.8.8.8', new Headers({ host: 'localhost' }))).toBe('remote address is not local');
    expect(guardVerdict(undefined, new Headers())).toBe('remote address is not local');
    expect(guardVerdict('192.168.1.5', new Headers({ host: '192.168.1.2:2356' }))).toBeNull();
  });
});

describe('CORS', () => {
  it('answers preflights of allowed origins with the reflected origin, method and headers, credentials and max-age 300', async () => {
    const fx = await startFixture({ rooms: [], corsOrigins: ['http://192.168.1.9:8080', 'http://any.example'] });
    try {
      const pre = await fx.call('OPTIONS', '/api/room/1/config', undefined, {
        origin: 'http://192.168.1.9:8080', 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'x-custom, content-type',
      });
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('http://192.168.1.9:8080');
      expect(pre.headers.get('access-control-allow-credentials')).toBe('true');
      expect(pre.headers.get('access-control-allow-methods')).toBe('PATCH');
      expect(pre.headers.get('access-control-allow-headers')).toBe('x-custom, content-type');
      expect(pre.headers.get('access-control-max-age')).toBe('300');

      for (const path of ['/api/version', '/api/nope', '/api/room/99']) {
        const res = await fx.call('GET', path, undefined, { origin: 'http://any.example' });
        expect(res.headers.get('access-control-allow-origin'), path).toBe('http://any.example');
        expect(res.headers.get('access-control-allow-credentials')).toBe('true');
        expect(res.headers.get('access-control-expose-headers')).toBe('Content-Length');
      }
      const plain = await fx.call('GET', '/api/version');
      expect(plain.headers.get('access-control-allow-origin')).toBeNull();
      // OPTIONS that is not a preflight is just a method the route does not have.
      expect((await fx.call('OPTIONS', '/api/version')).status).toBe(405);
    } finally {
      await fx.close();
    }
  });
});
