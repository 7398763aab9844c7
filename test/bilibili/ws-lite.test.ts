// The minimal WebSocket client against the `ws` server: binary/text, fragments, large frames, ping, close.
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { WsLite } from '../../src/bilibili/danmaku/ws-lite.js';

let server: WebSocketServer | null = null;

async function serve(onConn: (ws: WebSocket, headers: Record<string, unknown>) => void): Promise<string> {
  server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  server.on('connection', (ws, req) => onConn(ws, req.headers));
  await new Promise((r) => server!.once('listening', r));
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}/sub`;
}

afterEach(async () => {
  await new Promise((r) => server?.close(r) ?? r(null));
  server = null;
});

function messages(ws: WsLite, n: number): Promise<Buffer[]> {
  const got: Buffer[] = [];
  return new Promise((resolve) =>
    ws.on('message', (d: Buffer) => {
      got.push(d);
      if (got.length === n) resolve(got);
    }),
  );
}

describe('WsLite', () => {
  it('exchanges messages (masked client frames), with the given headers', async () => {
    let seenHeaders: Record<string, unknown> = {};
    const url = await serve((ws, headers) => {
      seenHeaders = headers;
      ws.on('message', (d: Buffer) => ws.send(Buffer.concat([Buffer.from('echo:'), d])));
    });
    const ws = await WsLite.connect(url, { headers: { Origin: 'https://live.bilibili.com' } });
    const got = messages(ws, 2);
    ws.send(Buffer.from('a'));
    ws.send(Buffer.alloc(70_000, 7));
    const [a, big] = await got;
    expect(a!.toString()).toBe('echo:a');
    expect(big).toHaveLength(70_005);
    expect(seenHeaders.origin).toBe('https://live.bilibili.com');
    ws.close();
  });

  it('reassembles fragmented messages, answers pings and reports the close code', { timeout: 5000 }, async () => {
    let pong = false;
    const url = await serve((ws) => {
      ws.on('pong', () => (pong = true));
      ws.send(Buffer.from('part1-'), { fin: false });
      ws.send(Buffer.from('part2'), { fin: true });
      ws.send('text message');
      ws.ping(Buffer.from('p'));
      setTimeout(() => ws.close(4001, 'bye'), 100);
    });
    const ws = await WsLite.connect(url);
    const got = messages(ws, 2);
    const closed = new Promise<number>((r) => ws.on('close', (code: number) => r(code)));
    expect((await got).map((b) => b.toString())).toEqual(['part1-part2', 'text message']);
    expect(await closed).toBe(4001);
    expect(pong).toBe(true);
  });

  it('reports a dropped connection as close 1006 and a refused one as a rejected connect', async () => {
    const url = await serve((ws) => setTimeout(() => ws.terminate(), 50));
    const ws = await WsLite.connect(url);
    expect(await new Promise((r) => ws.on('close', r))).toBe(1006);
    await expect(WsLite.connect('ws://127.0.0.1:1/sub')).rejects.toThrow();
    await expect(WsLite.connect(url.replace('ws:', 'http:'))).rejects.toThrow(/Not a WebSocket URL/);
  });
});

describe('wss', () => {
  it('connects over TLS with certificate validation and exchanges binary messages', async () => {
    const { readFileSync } = await import('node:fs');
    const { createServer } = await import('node:https');
    const dir = new URL('../fixtures/tls/', import.meta.url);
    const cert = readFileSync(new URL('cert.pem', dir));
    const https = createServer({ cert, key: readFileSync(new URL('key.pem', dir)) });
    const wss = new WebSocketServer({ server: https });
    wss.on('connection', (ws) => ws.on('message', (d) => ws.send(Buffer.concat([Buffer.from('echo:'), d as Buffer]))));
    await new Promise<void>((r) => https.listen(0, '127.0.0.1', r));
    const url = `wss://localhost:${(https.address() as AddressInfo).port}/sub`;
    try {
      const ws = await WsLite.connect(url, { ca: cert });
      const got = messages(ws, 1);
      ws.send(Buffer.from([1, 2, 3]));
      expect((await got)[0]).toEqual(Buffer.from([...Buffer.from('echo:'), 1, 2, 3]));
      ws.close();
      await expect(WsLite.connect(url)).rejects.toThrow(/certificate/i); // validation stays on
    } finally {
      wss.close();
      await new Promise((r) => https.close(r));
    }
  });
});
