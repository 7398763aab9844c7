// The raw-socket stream reader over real servers: TLS, chunked framing split anywhere, Content-Length, close-delimited.
import { readFileSync } from 'node:fs';
import { createServer as createHttp, type Server } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChunkedDecoder } from '../../src/bilibili/chunked-decoder.js';
import { openStream } from '../../src/bilibili/stream-download.js';

const tlsDir = join(import.meta.dirname, '../fixtures/tls');
const cert = readFileSync(join(tlsDir, 'cert.pem'));
const key = readFileSync(join(tlsDir, 'key.pem'));
const body = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 251));
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => { s.closeAllConnections(); s.close(r); })));
});

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

/** Reads the whole body with `consume`, copying each view (it is only valid during the callback). */
async function readAll(url: string, options = {}): Promise<Buffer> {
  const d = await openStream(url, options);
  const parts: Buffer[] = [];
  await d.consume((c) => parts.push(Buffer.from(c)));
  expect(d.bytesReceived).toBe(parts.reduce((n, p) => n + p.length, 0));
  return Buffer.concat(parts);
}

describe('stream reader', () => {
  it('reads a chunked body over TLS with certificate validation', async () => {
    const port = await listen(createHttps({ cert, key }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'video/x-flv' });
      for (let i = 0; i < body.length; i += 10_000) res.write(body.subarray(i, i + 10_000));
      res.end();
    }) as unknown as Server);
    expect((await readAll(`https://localhost:${port}/live.flv`, { tlsCa: cert })).equals(body)).toBe(true);
    // Without trusting the certificate, the connection is refused (validation is on).
    await expect(openStream(`https://localhost:${port}/live.flv`)).rejects.toMatchObject({ code: 'STREAM_NETWORK' });
  });

  it('decodes chunk framing split at every byte boundary the kernel may choose', async () => {
    const port = await listen(createHttp((req) => {
      // Hand-written response, dribbled out a few bytes at a time, with chunk extensions and a trailer.
      const s = req.socket as Socket;
      const frames = [Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n')];
      for (let i = 0; i < 5000; i += 977) {
        const part = body.subarray(i, Math.min(5000, i + 977));
        frames.push(Buffer.from(`${part.length.toString(16)};ext=1\r\n`), part, Buffer.from('\r\n'));
      }
      frames.push(Buffer.from('0\r\nX-Trailer: yes\r\n\r\n'));
      const all = Buffer.concat(frames);
      let i = 0;
      const tick = setInterval(() => {
        if (i >= all.length) { clearInterval(tick); return; }
        s.write(all.subarray(i, i + 3));
        i += 3;
      }, 0);
    }));
    expect((await readAll(`http://127.0.0.1:${port}/x`)).equals(body.subarray(0, 5000))).toBe(true);
  });

  it('reads Content-Length and close-delimited bodies, and reports a short Content-Length body as aborted', async () => {
    const port = await listen(createHttp((req, res) => {
      if (req.url === '/length') res.writeHead(200, { 'content-length': String(body.length) }).end(body);
      else if (req.url === '/close') {
        req.socket.write('HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n');
        req.socket.end(body);
      } else {
        req.socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n`);
        req.socket.end(body.subarray(0, 1000));
      }
    }));
    expect((await readAll(`http://127.0.0.1:${port}/length`)).equals(body)).toBe(true);
    expect((await readAll(`http://127.0.0.1:${port}/close`)).equals(body)).toBe(true);
    await expect(readAll(`http://127.0.0.1:${port}/short`)).rejects.toMatchObject({ code: 'STREAM_ABORTED' });
  });

  it('rejects malformed chunk framing with a coded error', () => {
    const d = new ChunkedDecoder();
    expect(() => d.feed(Buffer.from('zz\r\n'), 0, 4, () => undefined)).toThrow(expect.objectContaining({ code: 'STREAM_ABORTED' }));
    const e = new ChunkedDecoder();
    expect(() => e.feed(Buffer.from('2\r\nabX'), 0, 6, () => undefined)).toThrow(expect.objectContaining({ code: 'STREAM_ABORTED' }));
  });
});
