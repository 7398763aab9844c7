// The TCP front door of the API: answers only whole plain GETs it is given answers for, and hands every other
// connection, unread bytes included and in order, to node:http (real sockets; the inner server tells who answered).
import { createServer, type Server as HttpServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFrontDoor, type FrontDoor } from '../../src/api/front-door/front-door.js';

interface Answer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/** Successive HTTP/1.1 responses from a byte stream (content-length or chunked bodies; none for 304). */
function parseResponses(data: Buffer): Answer[] {
  const out: Answer[] = [];
  let i = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', i);
    if (end < 0) return out;
    const [statusLine, ...lines] = data.subarray(i, end).toString('latin1').split('\r\n');
    const headers = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const status = Number(statusLine!.split(' ')[1]);
    let at = end + 4;
    let body = '';
    if (headers.get('transfer-encoding') === 'chunked') {
      for (;;) {
        const eol = data.indexOf('\r\n', at);
        const size = Number.parseInt(data.subarray(at, eol).toString(), 16);
        body += data.subarray(eol + 2, eol + 2 + size).toString();
        at = eol + 2 + size + 2;
        if (size === 0) break;
      }
    } else if (status !== 304) {
      const n = Number(headers.get('content-length') ?? 0);
      body = data.subarray(at, at + n).toString();
      at += n;
    }
    out.push({ status, headers, body });
    i = at;
  }
}

const MID = Buffer.alloc(256 * 1024, 'm');
const BIG = Buffer.alloc(2 * 1024 * 1024, 'b');

describe('the API front door', () => {
  let inner: HttpServer;
  let door: FrontDoor;
  let port = 0;
  const seenByNode: string[] = [];
  beforeAll(async () => {
    inner = createServer((req, res) => {
      seenByNode.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => res.end(`node:${req.method} ${req.url}`));
    });
    door = createFrontDoor(inner, (get) => {
      if (get.url === '/cached') return { status: 200, etag: '"e1"', contentType: 'text/plain', body: Buffer.from('front:/cached') };
      if (get.url === '/cached304' && get.headers.get('if-none-match') === '"e1"') return { status: 304, etag: '"e1"' };
      // Answers below 1 MiB go out joined to their head, larger ones as head and body: both kinds are asked for.
      if (get.url === '/mid') return { status: 200, etag: '"mid"', contentType: 'text/plain', body: MID };
      if (get.url === '/big') return { status: 200, etag: '"big"', contentType: 'text/plain', body: BIG };
      return null;
    });
    await new Promise<void>((r) => door.server.listen(0, '127.0.0.1', r));
    port = (door.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    door.closeAllConnections();
    await new Promise((r) => door.server.close(r));
  });

  /** Writes each part (with a pause between), then reads until `count` responses arrived or the server closed. */
  async function exchange(parts: string[], count: number, opts: { pauseMs?: number } = {}): Promise<{ answers: Answer[]; closed: boolean; socket: Socket }> {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    let closed = false;
    const done = new Promise<void>((resolve, reject) => {
      socket.on('data', (d: Buffer) => {
        chunks.push(d);
        if (parseResponses(Buffer.concat(chunks)).length >= count) resolve();
      });
      socket.on('close', () => {
        closed = true;
        resolve();
      });
      socket.on('error', reject);
      socket.setTimeout(20_000, () => reject(new Error('no answer in 20 s')));
    });
    await new Promise((r) => socket.once('connect', r));
    for (const [k, p] of parts.entries()) {
      if (k > 0) await new Promise((r) => setTimeout(r, opts.pauseMs ?? 50));
      socket.write(p, 'latin1');
    }
    await done;
    // A close right after the last answer counts too.
    await new Promise((r) => setTimeout(r, 50));
    return { answers: parseResponses(Buffer.concat(chunks)), closed: closed || socket.destroyed, socket };
  }

  const get = (path: string, extra = ''): string => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n${extra}\r\n`;

  it('answers pipelined GETs itself, then hands the rest of the connection to node:http in order', async () => {
    seenByNode.length = 0;
    const body = 'hello';
    const post = `POST /form HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const { answers, socket } = await exchange([get('/cached') + get('/cached304', 'If-None-Match: "e1"\r\n') + post + get('/cached') + get('/other')], 5);
    socket.destroy();
    expect(answers.map((a) => [a.status, a.body])).toEqual([
      [200, 'front:/cached'], [304, ''], [200, 'node:POST /form'], [200, 'node:GET /cached'], [200, 'node:GET /other'],
    ]);
    expect(answers[0]!.headers.get('etag')).toBe('"e1"');
    expect(answers[0]!.headers.get('content-type')).toBe('text/plain');
    expect(answers[0]!.headers.get('keep-alive')).toBe(`timeout=${Math.floor(inner.keepAliveTimeout / 1000)}`);
    // Once handed over, the connection stays with node:http (its /cached went there too).
    expect(seenByNode).toEqual(['POST /form', 'GET /cached', 'GET /other']);
  });

  it('leaves every request it cannot read beyond doubt to node:http', async () => {
    const cases: [string, string][] = [
      ['a body by Content-Length', 'GET /cached HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\n\r\nabc'],
      ['a chunked body', 'GET /cached HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n'],
      ['a folded header line', 'GET /cached HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: 1\r\n  2\r\n\r\n'],
      ['two Host headers', 'GET /cached HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.2\r\n\r\n'],
      ['HTTP/1.0', 'GET /cached HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n'],
      ['Connection: close', 'GET /cached HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'],
      ['a bare LF', 'GET /cached HTTP/1.1\nHost: 127.0.0.1\r\n\r\n'],
      ['an absolute-form target', 'GET http://127.0.0.1/cached HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
      ['no Host', 'GET /cached HTTP/1.1\r\nX-A: 1\r\n\r\n'],
      ['HEAD', 'HEAD /cached HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
      ['Authorization', 'GET /cached HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Basic eDp5\r\n\r\n'],
      // llhttp reads Proxy-Connection as Connection (found by front-door-fuzz.test.ts).
      ['Proxy-Connection: close', 'GET /cached HTTP/1.1\r\nHost: 127.0.0.1\r\nProxy-Connection: close\r\n\r\n'],
    ];
    // Twice: the second time the head comes from the reader's memory of heads it has seen.
    for (const [what, bytes] of [...cases, ...cases]) {
      seenByNode.length = 0;
      const { answers, socket } = await exchange([bytes], 1);
      socket.destroy();
      expect(answers.length, what).toBeGreaterThanOrEqual(1);
      // node:http either answered as the app (its listener saw the request) or refused it itself; never the front door.
      expect(answers[0]!.body.startsWith('front:'), what).toBe(false);
      if (answers[0]!.status === 200) expect(seenByNode.length, what).toBe(1);
      else expect(answers[0]!.status, what).toBe(400);
    }
  });

  it('answers the same head again and again on one connection, each from the current answer', async () => {
    seenByNode.length = 0;
    const { answers, socket } = await exchange([get('/cached'), get('/cached'), get('/cached304', 'If-None-Match: "e1"\r\n'), get('/cached')], 4);
    socket.destroy();
    expect(answers.map((a) => [a.status, a.body])).toEqual([[200, 'front:/cached'], [200, 'front:/cached'], [304, ''], [200, 'front:/cached']]);
    expect(seenByNode).toEqual([]);
  });

  it('hands over a head that arrives in pieces, and node:http finishes it', async () => {
    seenByNode.length = 0;
    const { answers, socket } = await exchange(['GET /cached HTTP/1.1\r\nHo', 'st: 127.0.0.1\r\n\r\n'], 1, { pauseMs: 100 });
    socket.destroy();
    expect(answers.map((a) => a.body)).toEqual(['node:GET /cached']);
    expect(seenByNode).toEqual(['GET /cached']);
  });

  it('answers a client that asks faster than it reads, in order and completely', async () => {
    const n = 40;
    const urls = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? '/mid' : '/big'));
    const socket = connect({ host: '127.0.0.1', port });
    await new Promise((r) => socket.once('connect', r));
    socket.pause();
    // A last request node:http answers: its answer can only arrive after all the others, so it marks the end.
    socket.write(`${urls.map((u) => get(u)).join('')}${get('/end')}`);
    await new Promise((r) => setTimeout(r, 300));
    const chunks: Buffer[] = [];
    const END = Buffer.from('node:GET /end');
    await new Promise<void>((resolve, reject) => {
      let tail = Buffer.alloc(0);
      socket.on('data', (d: Buffer) => {
        chunks.push(d);
        tail = Buffer.concat([tail, d]).subarray(-END.length);
        if (tail.equals(END)) resolve();
      });
      socket.on('error', reject);
      socket.setTimeout(30_000, () => reject(new Error('stalled')));
      socket.resume();
    });
    socket.destroy();
    const answers = parseResponses(Buffer.concat(chunks));
    expect(answers.map((a) => a.body.length)).toEqual([...urls.map((u) => (u === '/mid' ? MID.length : BIG.length)), END.length]);
    expect(answers.map((a) => a.status)).toEqual([...urls.map(() => 200), 200]);
    expect(answers.slice(0, n).every((a, i) => a.body === (urls[i] === '/mid' ? MID : BIG).toString())).toBe(true);
  }, 60_000);

  it('hands a client the guard refuses, and a client past its scan budget, to node:http before reading its head (issue 46)', async () => {
    for (const options of [{ admits: () => false }, { scanBytesPerClientPerSecond: 10 }]) {
      let asked = 0;
      const seen: string[] = [];
      const d = createFrontDoor(createServer((req, res) => {
        seen.push(req.url!);
        res.end(`node:${req.url}`);
      }), () => {
        asked++;
        return { status: 200, etag: '"e"', contentType: 'text/plain', body: Buffer.from('front') };
      }, options);
      await new Promise<void>((r) => d.server.listen(0, '127.0.0.1', r));
      const p = (d.server.address() as { port: number }).port;
      const socket = connect({ host: '127.0.0.1', port: p });
      const END = 'node:/end';
      let data = '';
      await new Promise<void>((resolve, reject) => {
        socket.on('data', (b: Buffer) => {
          data += b.toString('latin1');
          if (data.endsWith(END)) resolve();
        }).on('error', reject);
        socket.write(get('/cached') + get('/end'));
      });
      socket.destroy();
      expect(asked, JSON.stringify(Object.keys(options))).toBe(0);
      expect(seen).toEqual(['/cached', '/end']);
      d.closeAllConnections();
      await new Promise((r) => d.server.close(r));
    }
  });

  it('ends its own and the handed-over connections when closed', async () => {
    const d2 = createFrontDoor(createServer((_req, res) => res.end('x')), () => null);
    await new Promise<void>((r) => d2.server.listen(0, '127.0.0.1', r));
    const p2 = (d2.server.address() as { port: number }).port;
    const idle = connect({ host: '127.0.0.1', port: p2 });
    const partial = connect({ host: '127.0.0.1', port: p2 });
    await Promise.all([idle, partial].map((s) => new Promise((r) => s.once('connect', r))));
    partial.write('GET / HTTP/1.1\r\nHost: 1');
    await new Promise((r) => setTimeout(r, 100));
    const ended = Promise.all([idle, partial].map((s) => new Promise((r) => s.once('close', r))));
    d2.closeAllConnections();
    const closed = new Promise((r) => d2.server.close(r));
    await ended;
    await closed;
  });
});
