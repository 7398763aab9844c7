// Differential fuzzing of the front door's head reader against node's own parser (llhttp, through a real node:http server).
/*
 * The property (docs/scale.md): for any bytes, the front door either hands the connection to node:http or answers
 * exactly what node:http would. Its answer depends only on the target and the headers it read, so it is enough that
 * every head the reader accepts is read by node:http as one GET/1.1 request with the same target and the same
 * headers, ending at the same byte. Each accepted head is sent, pipelined in batches with a marker request after the
 * last, over loopback to a node:http server with its default options: node must report exactly the heads in order,
 * then the marker; a 400 (clientError), a shifted boundary or a different header is a disagreement. Heads the reader
 * refuses go to node:http in production and need no check here; they are counted so a run cannot pass empty.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { scanSimpleGet } from '../../src/api/front-door/simple-get.js';
import { mulberry32 } from './fuzz-cases.js';

type Rng = () => number;

const PATHS = ['/api/room', '/api/room/1', '/api/room/2147483647', '/api/room?x=1', '/', '/a%20b', '/api/room/../x', '/#frag', '/?', "/a'b\"c", '/{}|\\^`[]', '/~!$&()*+,;=:@', '//x', '/%00', '/\u00e9'];
const NAMES = ['Host', 'host', 'HOST', 'If-None-Match', 'User-Agent', 'Accept', 'Accept-Encoding', 'Connection', 'Origin', 'X-Forwarded-For', 'Cache-Control',
  'Cookie', 'Referer', 'X-Pad', 'Set-Cookie', 'Content-Length', 'Transfer-Encoding', 'Upgrade', 'Expect', 'TE', 'Authorization', 'Proxy-Connection',
  'Keep-Alive', 'Sec-Fetch-Site', 'X-A', 'x_b', "!#$%&'*+-.^_`|~", 'Trailer', 'Content-Type'];
const VALUES = ['127.0.0.1', 'localhost:2356', '[::1]:2356', '"abc"', 'W/"x", "y"', 'keep-alive', 'close', 'Keep-Alive', 'upgrade', '*/*', 'gzip, deflate',
  '0', '5', 'chunked', 'a=b; c=d', '', 'x'.repeat(100), 'caf\u00e9', 'a,b', '100-continue', 'same-origin', 'Basic eDp5'];
/** Bytes that parsers tend to disagree on, besides a random one. */
const INTERESTING = [0x00, 0x01, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1f, 0x20, 0x22, 0x23, 0x25, 0x2c, 0x2f, 0x3a, 0x3b, 0x3f, 0x40, 0x5c, 0x7b, 0x7f, 0x80, 0xa0, 0xff];

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
const ows = (rng: Rng): string => pick(rng, ['', '', '', ' ', ' ', '\t', '  ', ' \t ']);

/** A head that node:http and the reader should both accept as often as not: a GET with a few common headers. */
function baseHead(rng: Rng): string {
  const lines: string[] = [];
  const n = Math.floor(rng() * 6);
  const hostAt = rng() < 0.9 ? Math.floor(rng() * (n + 1)) : -1;
  for (let i = 0; i <= n; i++) {
    const name = i === hostAt ? pick(rng, ['Host', 'host', 'HOST']) : pick(rng, NAMES);
    const value = i === hostAt ? pick(rng, ['127.0.0.1', 'localhost:2356', '[::1]:2356', '10.0.0.2', 'example.com']) : pick(rng, VALUES);
    lines.push(`${name}:${ows(rng)}${value}${rng() < 0.2 ? ows(rng) : ''}\r\n`);
  }
  return `GET ${pick(rng, PATHS)} HTTP/1.1\r\n${lines.join('')}\r\n`;
}

/** One random change of the kind that separates parsers. */
function mutate(rng: Rng, h: string): string {
  const at = Math.floor(rng() * (h.length + 1));
  const byte = (): string => String.fromCharCode(rng() < 0.7 ? pick(rng, INTERESTING) : Math.floor(rng() * 256));
  switch (Math.floor(rng() * 11)) {
    case 0: return h.slice(0, at) + byte() + h.slice(at);
    case 1: return h.slice(0, at) + h.slice(at + 1);
    case 2: return h.slice(0, at) + byte() + h.slice(at + 1);
    case 3: { // a header line twice
      const lines = h.split('\r\n');
      const k = 1 + Math.floor(rng() * Math.max(1, lines.length - 3));
      lines.splice(k, 0, lines[k]!);
      return lines.join('\r\n');
    }
    case 4: return h.slice(0, at) + pick(rng, [' ', '\t']).repeat(1 + Math.floor(rng() * 300)) + h.slice(at);
    case 5: return h.slice(0, at) + h.slice(at, at + 1).toUpperCase() + h.slice(at + 1);
    case 6: return h.slice(0, at) + pick(rng, ['\r\n ', '\r\n\t', '\n', '\r', '\r\n\r\n', ':', '\r\nX: y']) + h.slice(at);
    case 7: return h.replace('HTTP/1.1', pick(rng, ['HTTP/1.0', 'HTTP/1.2', 'HTTP/2.0', 'http/1.1', 'HTTP/1.1 ', 'HTTP/01.1', 'HTTP/1.10']));
    case 8: return h.replace(/^GET /, pick(rng, ['get ', 'GET  ', 'HEAD ', 'POST ', ' GET ', '\r\nGET ', 'GET\t']));
    case 9: { // a long header of spaces with a word after (the old reader's quadratic case)
      const i = h.indexOf('\r\n') + 2;
      return `${h.slice(0, i)}X-Pad: a${' '.repeat(Math.floor(rng() * 8000))}b\r\n${h.slice(i)}`;
    }
    default: return h.slice(0, at) + `${pick(rng, NAMES)}:${ows(rng)}${pick(rng, VALUES)}\r\n` + h.slice(at);
  }
}

/** `count` heads from `seed`: about a third as built, the rest with one to four changes. */
export function generateHeads(seed: number, count: number): string[] {
  const rng = mulberry32(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let h = baseHead(rng);
    if (rng() >= 0.35) for (let k = 1 + Math.floor(rng() * 4); k > 0; k--) h = mutate(rng, h);
    out.push(h);
  }
  return out;
}

export interface DiffReport {
  heads: number;
  /** Heads the reader accepted (the front door would answer them), each checked against node:http. */
  accepted: number;
  /** Disagreements: the head (JSON-escaped, cut) and what differed. */
  mismatches: string[];
}

interface Seen {
  method: string;
  url: string;
  httpVersion: string;
  headers: [string, string][];
}

const MARKER = 'GET /__front_door_diff_end__ HTTP/1.1\r\nHost: marker\r\n\r\n';
const BATCH = 400;

/** Checks every head of `heads` that the reader accepts against a real node:http server over loopback. */
export async function differential(heads: readonly string[]): Promise<DiffReport> {
  const expected: { bytes: string; url: string; headers: [string, string][] }[] = [];
  for (const h of heads) {
    const get = scanSimpleGet(h, 0);
    if (get === 'other') continue;
    expected.push({ bytes: h.slice(0, get.end), url: get.url, headers: [...get.headers] });
  }
  // Per connection (by the client's port): what node:http read, and whether it refused something.
  const byPort = new Map<number, { seen: Seen[]; error: string | null; done: () => void }>();
  const server = createServer((req: IncomingMessage, res) => {
    const batch = byPort.get(req.socket.remotePort ?? -1);
    if (req.url === '/__front_door_diff_end__') {
      res.end();
      batch?.done();
      return;
    }
    const pairs: [string, string][] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) pairs.push([req.rawHeaders[i]!.toLowerCase(), req.rawHeaders[i + 1]!]);
    batch?.seen.push({ method: req.method ?? '', url: req.url ?? '', httpVersion: req.httpVersion, headers: pairs });
    res.end();
  });
  server.on('clientError', (err: Error & { code?: string }, socket: Socket) => {
    const batch = byPort.get(socket.remotePort ?? -1);
    if (batch) batch.error = `${err.code ?? ''} ${err.message}`;
    socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const mismatches: string[] = [];
  const show = (s: string): string => JSON.stringify(s.length > 300 ? `${s.slice(0, 300)}…(${s.length})` : s);
  try {
    let from = 0;
    while (from < expected.length) {
      const batch = expected.slice(from, from + BATCH);
      const socket = connect({ host: '127.0.0.1', port });
      await new Promise<void>((r, j) => socket.once('connect', r).once('error', j));
      const state = { seen: [] as Seen[], error: null as string | null, done: () => undefined as void };
      const ended = new Promise<void>((resolve) => {
        state.done = resolve;
        socket.once('close', () => resolve());
      });
      byPort.set(socket.localPort!, state);
      socket.on('data', () => undefined).on('error', () => undefined);
      socket.write(batch.map((e) => e.bytes).join('') + MARKER, 'latin1');
      await ended;
      socket.destroy();
      byPort.delete(socket.localPort!);
      // Compare in order; the first disagreement ends the batch (node closed or shifted), the rest is sent again.
      let k = 0;
      for (; k < batch.length; k++) {
        const e = batch[k]!;
        const s = state.seen[k];
        if (!s) {
          const before = k > 0 ? ` (after ${show(batch[k - 1]!.bytes)})` : '';
          mismatches.push(`${show(e.bytes)}: node:http refused it (${state.error ?? 'closed'}) where the front door would answer${before}`);
          break;
        }
        const same = s.method === 'GET' && s.httpVersion === '1.1' && s.url === e.url && JSON.stringify(s.headers) === JSON.stringify(e.headers);
        if (!same) {
          mismatches.push(`${show(e.bytes)}: node:http read ${JSON.stringify(s)}, the front door ${JSON.stringify({ url: e.url, headers: e.headers })}`);
          break;
        }
      }
      if (k === batch.length && state.seen.length !== batch.length) {
        mismatches.push(`a batch of ${batch.length} heads: node:http read ${state.seen.length} requests before the marker`);
      }
      from += Math.min(batch.length, k + 1);
      if (mismatches.length >= 20) break;
    }
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
  return { heads: heads.length, accepted: expected.length, mismatches };
}
