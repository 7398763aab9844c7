// A hostile HLS CDN on loopback: proxies the simulator's fMP4 room and breaks it in one way per room (issue 36's HLS rows).
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * - trun-bomb: after `goodSegments`, each segment is a 64-byte moof whose trun declares 0xFFFFFFFF samples
 * - deep-moof: after `goodSegments`, each segment's moof holds moofs nested 12 deep
 * - endless-segment: after `goodSegments`, a segment whose mdat never ends, at ~100 KB/s (TS: null packets, ~2 KB/s)
 * - huge-segment: after `goodSegments`, a segment of `hugeBytes` (a real moof, then a junk mdat), as fast as it goes
 * - huge-init: the init section carries `hugeBytes` of padding
 * - all-404: the playlist advances, every segment answers 404
 * - target-huge: #EXT-X-TARGETDURATION is `target` (default 5000000)
 * Segment titles (`size|crc32`) are stripped for the modes that change segments, so the bytes reach the parser.
 */
export type HlsAttack = 'trun-bomb' | 'deep-moof' | 'endless-segment' | 'huge-segment' | 'huge-init' | 'all-404' | 'target-huge';

export interface HostileHls {
  url: string;
  /** The simulator to proxy (set once it runs). */
  upstream: string;
  /** Requests seen, by room id and kind. */
  hits: Map<number, { playlists: number; segments: number; inits: number }>;
  close(): Promise<void>;
}

export interface HostileHlsOptions {
  goodSegments?: number;
  hugeBytes?: number;
  /** The target duration the 'target-huge' mode announces, per room (default 5000000). */
  target?: (roomId: number) => number;
}

const box = (type: string, ...parts: Buffer[]): Buffer => {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};
const u32 = (...v: number[]): Buffer => {
  const b = Buffer.alloc(4 * v.length);
  v.forEach((x, i) => b.writeUInt32BE(x >>> 0, 4 * i));
  return b;
};

/** 64 bytes: moof(mfhd, traf(tfhd, trun count 0xFFFFFFFF, no per-sample fields)), then an 8-byte mdat. */
export function trunBomb(): Buffer {
  const moof = box('moof', box('mfhd', u32(0, 1)), box('traf', box('tfhd', u32(0x020000, 1)), box('trun', u32(0, 0xffffffff))));
  return Buffer.concat([moof, box('mdat')]);
}

/** The first top-level box of `type` in `seg`, or null. */
function topBox(seg: Buffer, type: string): Buffer | null {
  for (let p = 0; p + 8 <= seg.length;) {
    const size = seg.readUInt32BE(p);
    if (size < 8) return null;
    if (seg.toString('latin1', p + 4, p + 8) === type) return seg.subarray(p, p + size);
    p += size;
  }
  return null;
}

/** The segment's moof wrapped in 11 more moofs (12 deep), then its mdat: what ffmpeg refuses as "too deeply nested". */
function deepMoof(seg: Buffer): Buffer {
  let moof = topBox(seg, 'moof')!;
  for (let i = 0; i < 11; i++) moof = box('moof', moof);
  return Buffer.concat([moof, topBox(seg, 'mdat') ?? box('mdat')]);
}

const roomOfPath = (path: string): number => Number(/live_(\d+)_/.exec(path)?.[1] ?? 0);

async function upstream(url: string): Promise<{ status: number; body: Buffer }> {
  const res = await fetch(url);
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}

export async function startHostileHls(attacks: Map<number, HlsAttack>, options: HostileHlsOptions = {}): Promise<HostileHls> {
  const good = options.goodSegments ?? 3;
  const hugeBytes = options.hugeBytes ?? 64 * 1024 * 1024;
  const sockets = new Set<Socket>();
  const segmentsServed = new Map<number, number>();
  const cdn: HostileHls = { url: '', upstream: '', hits: new Map(), close: async () => undefined };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://x');
    const room = roomOfPath(url.pathname);
    const attack = attacks.get(room);
    const hits = cdn.hits.get(room) ?? { playlists: 0, segments: 0, inits: 0 };
    cdn.hits.set(room, hits);
    if (!cdn.upstream) return void res.writeHead(503).end();
    const up = await upstream(cdn.upstream + url.pathname + url.search);
    if (url.pathname.endsWith('.m3u8')) {
      hits.playlists++;
      let text = up.body.toString('utf8');
      if (attack === 'target-huge') text = text.replace(/#EXT-X-TARGETDURATION:\d+/, `#EXT-X-TARGETDURATION:${options.target?.(room) ?? 5_000_000}`);
      else if (attack !== 'huge-init' && attack !== 'all-404') text = text.replace(/^(#EXTINF:[^,]*,).*$/gm, '$1');
      return void res.writeHead(up.status, { 'Content-Type': 'application/vnd.apple.mpegurl' }).end(text);
    }
    const isInit = /\/h\d+\.m4s$/.test(url.pathname);
    if (isInit) {
      hits.inits++;
      if (attack === 'huge-init' && up.status === 200) {
        // The real init, then a free box of hugeBytes streamed as fast as the socket takes it.
        res.writeHead(200, { 'Content-Type': 'video/mp4', 'Content-Length': up.body.length + hugeBytes });
        res.write(up.body);
        const head = Buffer.alloc(8);
        head.writeUInt32BE(hugeBytes, 0);
        head.write('free', 4, 'latin1');
        res.write(head);
        return pump(res, Buffer.alloc(1 << 20), hugeBytes - 8, 0);
      }
      return void res.writeHead(up.status, { 'Content-Type': 'video/mp4' }).end(up.body);
    }
    hits.segments++;
    if (attack === 'all-404') return void res.writeHead(404).end('Not Found');
    const n = (segmentsServed.get(room) ?? 0) + 1;
    segmentsServed.set(room, n);
    if (up.status !== 200 || n <= good || attack === undefined || attack === 'target-huge' || attack === 'huge-init') {
      return void res.writeHead(up.status, { 'Content-Type': 'video/iso.segment' }).end(up.body);
    }
    if (attack === 'endless-segment' && url.pathname.endsWith('.ts')) {
      // TS: the first half of the real segment, then a null packet (PID 0x1FFF) every 100 ms, forever.
      res.writeHead(200, { 'Content-Type': 'video/mp2t' });
      res.write(up.body.subarray(0, Math.floor(up.body.length / 376) * 188));
      const nul = Buffer.alloc(188, 0xff);
      nul[0] = 0x47;
      nul[1] = 0x1f;
      nul[2] = 0xff;
      nul[3] = 0x10;
      return pump(res, nul, Infinity, 100);
    }
    switch (attack) {
      case 'trun-bomb': return void res.writeHead(200).end(trunBomb());
      case 'deep-moof': return void res.writeHead(200).end(deepMoof(up.body));
      case 'endless-segment':
      case 'huge-segment': {
        const moof = topBox(up.body, 'moof')!;
        const mdat = Buffer.alloc(8);
        mdat.writeUInt32BE(attack === 'huge-segment' ? hugeBytes : 0xfffffff0, 0);
        mdat.write('mdat', 4, 'latin1');
        res.writeHead(200, { 'Content-Type': 'video/iso.segment' });
        res.write(Buffer.concat([moof, mdat]));
        const junk = Buffer.alloc(attack === 'huge-segment' ? 1 << 20 : 10_000, 0x42);
        return pump(res, junk, attack === 'huge-segment' ? hugeBytes : Infinity, attack === 'huge-segment' ? 0 : 100);
      }
    }
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cdn.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  cdn.close = () => new Promise<void>((resolve) => {
    for (const s of sockets) s.destroy();
    server.close(() => resolve());
  });
  return cdn;
}

/** Writes `chunk` until `total` bytes went out: back to back (everyMs 0) or one chunk every `everyMs`. */
function pump(res: ServerResponse, chunk: Buffer, total: number, everyMs: number): void {
  let sent = 0;
  const step = (): void => {
    while (!res.destroyed && sent < total) {
      const b = chunk.subarray(0, Math.min(chunk.length, total - sent));
      sent += b.length;
      const more = res.write(b);
      if (everyMs > 0) return void setTimeout(step, everyMs);
      if (!more) return void res.once('drain', step);
    }
    if (!res.destroyed && sent >= total) res.end();
  };
  res.on('error', () => undefined);
  step();
}
