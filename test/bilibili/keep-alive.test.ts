// Kept-alive sockets for HLS requests: reused per origin, never for FLV, dropped after bad ends, retried when stale.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStream } from '../../src/bilibili/stream-download.js';
import { idleCount, linkKey } from '../../src/bilibili/keep-alive-pool.js';
import { fetchText } from '../../src/hls/http-fetch.js';

interface Served {
  url: string;
  connections: () => number;
  requests: { connection: string | undefined; socket: number }[];
  close: () => Promise<void>;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

async function serve(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Served> {
  const server = http.createServer(handler);
  let connections = 0;
  const sockets = new Map<net.Socket, number>();
  const requests: Served['requests'] = [];
  server.on('connection', (s) => sockets.set(s, ++connections));
  server.on('request', (req) => requests.push({ connection: req.headers.connection, socket: sockets.get(req.socket)! }));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const close = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
  closers.push(close);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections, requests, close };
}

const body = (n: number): string => 'x'.repeat(n);
const tlsDir = join(import.meta.dirname, '../fixtures/tls');

describe('keep-alive pool (HLS requests)', () => {
  it('carries sequential requests to one origin on one socket, with bodies intact', async () => {
    const s = await serve((req, res) => {
      const text = `${req.url}:${body(70_000)}`; // larger than one 64 KiB read
      res.writeHead(200, { 'Content-Length': Buffer.byteLength(text) }).end(text);
    });
    for (let i = 0; i < 5; i++) {
      const { text } = await fetchText(`${s.url}/p${i}.m3u8`, {});
      expect(text).toBe(`/p${i}.m3u8:${body(70_000)}`);
    }
    expect(s.connections()).toBe(1);
    expect(s.requests.map((r) => r.connection)).toEqual(Array(5).fill('keep-alive'));
  });

  it('keeps TLS sockets too (one handshake for many requests), per trusted CA', async () => {
    const cert = readFileSync(join(tlsDir, 'cert.pem'));
    const server = https.createServer({ cert, key: readFileSync(join(tlsDir, 'key.pem')) }, (_req, res) => res.writeHead(200, { 'Content-Length': 2 }).end('ok'));
    let connections = 0;
    server.on('secureConnection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }));
    const url = `https://localhost:${(server.address() as AddressInfo).port}/index.m3u8`;
    for (let i = 0; i < 4; i++) expect((await fetchText(url, { tlsCa: cert })).text).toBe('ok');
    expect(connections).toBe(1);
    expect(idleCount(linkKey(new URL(url), cert))).toBe(1);
    expect(idleCount(linkKey(new URL(url), undefined))).toBe(0);
  });

  it('never keeps an FLV stream socket: it asks for Connection: close and opens one per request', async () => {
    const s = await serve((_req, res) => res.writeHead(200, { 'Content-Length': 3 }).end('FLV'));
    for (let i = 0; i < 3; i++) {
      const d = await openStream(`${s.url}/live.flv`);
      const chunks: string[] = [];
      await d.consume((c) => chunks.push(Buffer.from(c).toString()));
      expect(chunks.join('')).toBe('FLV');
    }
    expect(s.requests.map((r) => r.connection)).toEqual(['close', 'close', 'close']);
    expect(s.connections()).toBe(3);
  });

  it('does not reuse after Connection: close, a chunked body, or an error status', async () => {
    let n = 0;
    const s = await serve((req, res) => {
      n++;
      if (req.url === '/close') res.writeHead(200, { 'Content-Length': 2, Connection: 'close' }).end('ok');
      else if (req.url === '/chunked') {
        res.writeHead(200);
        res.write('o');
        res.end('k');
      } else if (req.url === '/404') res.writeHead(404, { 'Content-Length': 2 }).end('no');
      else res.writeHead(200, { 'Content-Length': 2 }).end('ok');
    });
    for (const path of ['/close', '/a', '/chunked', '/b', '/404', '/c']) {
      if (path === '/404') await expect(fetchText(`${s.url}${path}`, {})).rejects.toMatchObject({ code: 'STREAM_HTTP_STATUS' });
      else expect((await fetchText(`${s.url}${path}`, {})).text).toBe('ok');
    }
    expect(n).toBe(6);
    // /close: its own socket; /a and /chunked share one (chunked is not handed back); /b and /404 share the next;
    // after the 404 the socket is closed, so /c opens a fourth.
    expect(s.requests.map((r) => r.socket)).toEqual([1, 2, 2, 3, 3, 4]);
  });

  it('retries once on a new socket when the server closed the idle one as the request went out', async () => {
    // A raw server that answers the first request on a socket and closes the socket when a second one arrives.
    let connections = 0;
    let answered = 0;
    const open = new Set<net.Socket>();
    const server = net.createServer((sock) => {
      connections++;
      open.add(sock);
      let served = false;
      sock.on('data', () => {
        if (served) return void sock.destroy();
        served = true;
        answered++;
        sock.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
      });
      sock.on('error', () => undefined);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise<void>((r) => {
      for (const sock of open) sock.destroy();
      server.close(() => r());
    }));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/seg.m4s`;
    for (let i = 0; i < 3; i++) expect((await fetchText(url, {})).text).toBe('ok');
    expect(answered).toBe(3);
    // 1 (first) + for each later request: the kept socket dies, a new one answers.
    expect(connections).toBe(3);
  });

  it('drops an idle socket once the server closes it, and the next request opens a new one', async () => {
    let connections = 0;
    let serverClosed = 0;
    const server = net.createServer((sock) => {
      connections++;
      sock.on('close', () => serverClosed++);
      sock.on('error', () => undefined);
      sock.once('data', () => {
        sock.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
        setTimeout(() => sock.end(), 50); // the server's own idle timeout
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise<void>((r) => server.close(() => r())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const key = linkKey(new URL(url), undefined);
    expect((await fetchText(`${url}/a`, {})).text).toBe('ok');
    expect(idleCount(key)).toBe(1);
    for (let i = 0; i < 200 && (serverClosed < 1 || idleCount(key) > 0); i++) await new Promise((r) => setTimeout(r, 10));
    expect(idleCount(key)).toBe(0);
    expect((await fetchText(`${url}/b`, {})).text).toBe('ok');
    expect(connections).toBe(2);
  });

  it('reports a body cut short and does not reuse its socket', async () => {
    const s = await serve((req, res) => {
      if (req.url === '/cut') {
        res.writeHead(200, { 'Content-Length': 100 });
        res.write('partial');
        setTimeout(() => req.socket.destroy(), 50);
      } else res.writeHead(200, { 'Content-Length': 2 }).end('ok');
    });
    expect((await fetchText(`${s.url}/a`, {})).text).toBe('ok');
    await expect(fetchText(`${s.url}/cut`, {})).rejects.toMatchObject({ code: 'STREAM_ABORTED' });
    expect((await fetchText(`${s.url}/b`, {})).text).toBe('ok');
    expect(s.requests.map((r) => r.socket)).toEqual([1, 1, 2]);
    expect(idleCount(linkKey(new URL(s.url), undefined))).toBe(1);
  });
});
