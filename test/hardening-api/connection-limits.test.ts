// Issue 46, break 8: 20,000 one-byte connections held every file descriptor and the API was unreachable. Now a client
// holds at most --http-max-connections-per-client connections (more are refused with 429 as they are accepted), all
// clients at most --http-max-connections, and a head that trickles in is cut at the head timeout from its first byte.
// Real server, real sockets; the limit is small here (N) and the test opens N + 50, the same shape at test scale.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFixture, type ApiFixture } from '../api/fixture.js';

const N = 20;
const fixtures: ApiFixture[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const f of fixtures.splice(0)) await f.close();
});

interface Held {
  socket: Socket;
  closed: Promise<void>;
  isClosed: () => boolean;
  received: () => string;
}

/** A connection from `localAddress` that sends `first` and then waits; its answer bytes and close are recorded. */
async function open(port: number, localAddress: string, first: string): Promise<Held> {
  const socket = connect({ host: '127.0.0.1', port, localAddress });
  sockets.push(socket);
  let data = '';
  let closed = false;
  socket.on('data', (d: Buffer) => void (data += d.toString('latin1'))).on('error', () => undefined);
  const done = new Promise<void>((r) => socket.once('close', () => { closed = true; r(); }));
  await new Promise<void>((r) => { socket.once('connect', r); socket.once('close', r); });
  if (!socket.destroyed) socket.write(first);
  return { socket, closed: done, isClosed: () => closed, received: () => data };
}

async function get(url: string, localAddress: string, auth?: string): Promise<{ status: number; body: string }> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/version`, { localAddress, agent: false, headers: auth ? { authorization: auth } : {} }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => void (body += d.toString())).on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject).end();
  });
}

const cases: [string, { basicUser?: string; basicPass?: string }, string | undefined][] = [
  ['the front door (no auth)', {}, undefined],
  ['node:http (Basic auth)', { basicUser: 'u', basicPass: 'p' }, `Basic ${Buffer.from('u:p').toString('base64')}`],
];

describe('connection limits and head timeouts', () => {
  for (const [what, options, auth] of cases) {
    it(`${what}: N + 50 one-byte connections from one client leave the API answering another, and trickled heads are cut`, async () => {
      const fx = await startFixture({ ...options, maxConnectionsPerClient: N, timeouts: { headersMs: 1500 } });
      fixtures.push(fx);
      const port = Number(new URL(fx.url).port);
      const held: Held[] = [];
      for (let i = 0; i < N + 50; i++) held.push(await open(port, '127.0.0.1', 'G'));
      // The 50 over the limit are answered 429 and closed; N stay.
      await Promise.all(held.slice(N).map((h) => h.closed));
      expect(held.slice(N).every((h) => h.received().startsWith('HTTP/1.1 429 '))).toBe(true);
      expect(held.slice(0, N).filter((h) => h.isClosed())).toHaveLength(0);
      // Another client is answered while they are held; the same client is refused.
      expect(await get(fx.url, '127.0.0.2', auth)).toMatchObject({ status: 200 });
      const again = await open(port, '127.0.0.1', 'GET /api/version HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await again.closed;
      expect(again.received()).toMatch(/^HTTP\/1\.1 429 /);
      // The N held ones trickle their head a byte at a time; the head timeout counts from the first byte, so each is
      // closed (408) while it is still sending, and the client's slots come back.
      const head = 'ET /api/version HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ';
      let sent = 0;
      const trickle = setInterval(() => {
        const byte = sent < head.length ? head[sent]! : 'a';
        sent++;
        for (const h of held.slice(0, N)) if (!h.isClosed()) h.socket.write(byte);
      }, 100);
      try {
        await Promise.all(held.slice(0, N).map((h) => h.closed));
      } finally {
        clearInterval(trickle);
      }
      expect(held.slice(0, N).map((h) => h.received().slice(0, 12))).toEqual(held.slice(0, N).map(() => 'HTTP/1.1 408'));
      expect(await get(fx.url, '127.0.0.1', auth)).toMatchObject({ status: 200 });
    }, 60_000);
  }

  it('the total limit refuses connections past it, whoever opens them', async () => {
    const fx = await startFixture({ maxConnections: 10, maxConnectionsPerClient: 1000 });
    fixtures.push(fx);
    const port = Number(new URL(fx.url).port);
    const held: Held[] = [];
    for (let i = 0; i < 15; i++) held.push(await open(port, `127.0.0.${1 + (i % 3)}`, 'G'));
    await Promise.all(held.slice(10).map((h) => h.closed));
    expect(held.slice(10).every((h) => h.received().startsWith('HTTP/1.1 429 '))).toBe(true);
    expect(held.slice(0, 10).filter((h) => h.isClosed())).toHaveLength(0);
    for (const h of held.slice(0, 5)) h.socket.destroy();
    await Promise.all(held.slice(0, 5).map((h) => h.closed));
    // Closed ones free their places (the server sees the close a moment later: asked until it answers).
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) status = (await get(fx.url, '127.0.0.4').catch(() => ({ status: 0 }))).status;
    expect(status).toBe(200);
  }, 60_000);
});
