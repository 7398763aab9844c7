// HTTP-level errors are JSON and 4xx: unknown paths, wrong methods, bad bodies, oversized bodies; brec's routing leniency.
import { request, Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, startFixture, type ApiFixture } from './fixture.js';

let fx: ApiFixture;
beforeAll(async () => {
  fx = await startFixture({ rooms: [{ roomId: 1001, autoRecord: false }] });
});
afterAll(async () => fx?.close());

const json = async (res: Response): Promise<any> => {
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return res.json();
};

describe('errors', () => {
  it('unknown /api paths: 404 JSON (not brec\'s HTML page)', async () => {
    for (const path of ['/api', '/api/nope', '/api/room/1001/nope', '/api/room/1001/config/x', '/api/config']) {
      const res = await fx.call('GET', path);
      expect(res.status, path).toBe(404);
      expect(await json(res)).toMatchObject({ code: -12 });
    }
    expect((await fx.call('GET', '/nothing-here')).status).toBe(404);
  });

  it('wrong method on a known path: 405 with Allow', async () => {
    const res = await fx.call('PUT', '/api/room/1001');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, DELETE, HEAD');
    expect(await json(res)).toMatchObject({ code: -13 });
    expect((await fx.call('PATCH', '/api/config/global')).status).toBe(405);
    expect((await fx.call('DELETE', '/api/version')).status).toBe(405);
  });

  it('malformed JSON, wrong types and wrong media types are 4xx JSON naming the problem', async () => {
    let res = await fx.call('POST', '/api/room', '{"roomId": ');
    expect(res.status).toBe(400);
    expect((await json(res)).message).toMatch(/JSON/);
    res = await fx.call('POST', '/api/room', { roomId: 1.5 });
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ code: -10, errors: { roomId: [expect.any(String)] } });
    res = await fx.call('POST', '/api/room', { roomId: 2 ** 31 });
    expect(res.status).toBe(400);
    res = await fx.call('POST', '/api/room', '{"roomId":5}', { 'content-type': 'text/plain' });
    expect(res.status).toBe(415);
    expect((await json(res)).code).toBe(-15);
  });

  it('bodies over 1 MiB: 413 JSON, declared or chunked, and the connection stays usable for keep-alive clients', async () => {
    const big = Buffer.alloc(1024 * 1024 + 1, 0x20);
    const declared = await rawRequest(fx.url, 'POST', '/api/config/global', { 'content-type': 'application/json' }, big);
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body.toString())).toMatchObject({ code: -11 });
    // Exactly 1 MiB is fine (whitespace around an object).
    const edge = Buffer.concat([Buffer.from('{}'), Buffer.alloc(1024 * 1024 - 2, 0x20)]);
    expect((await rawRequest(fx.url, 'POST', '/api/config/global', { 'content-type': 'application/json' }, edge)).status).toBe(200);

    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const { port } = new URL(fx.url);
    const send = (path: string, body: Buffer | undefined, chunked = false): Promise<number> => new Promise((resolve, reject) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (body && !chunked) headers['content-length'] = String(body.length);
      const req = request({ host: '127.0.0.1', port, method: body ? 'POST' : 'GET', path, headers, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      if (chunked && body) {
        for (let i = 0; i < body.length; i += 65536) req.write(body.subarray(i, i + 65536));
        req.end();
      } else req.end(body);
    });
    expect(await send('/api/room', big)).toBe(413);
    expect(await send('/api/room', Buffer.from('{"roomId":-1}'))).toBe(400);
    expect(await send('/api/room', big, true)).toBe(413);
    expect(await send('/api/version', undefined)).toBe(200);
    agent.destroy();
  });

  it('paths match case-insensitively with an optional trailing slash, as brec\'s routing does', async () => {
    for (const path of ['/API/ROOM/1001', '/api/room/1001/', '/api/Room/1001/IOSTATS', '/api/room/', '/api/misc/GenerateFileName/']) {
      const res = await fx.call(path.includes('File') ? 'POST' : 'GET', path, path.includes('File') ? { context: {} } : undefined);
      expect(res.status, path).toBe(200);
    }
  });

  it('HEAD works on GET routes', async () => {
    const res = await rawRequest(fx.url, 'HEAD', '/api/room/1001');
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
  });
});
