// A hostile FLV CDN on loopback for the hardening tests: a valid start, then endless junk of one kind per mode.
import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { encodeTag } from '../../src/flv/tag-encoding.js';
import { TagType } from '../../src/flv/tag.js';
import { fixtureFlv } from '../flv/helpers.js';

/**
 * - huge-tags: endless 16 MiB audio tags (no keyframe), as fast as the socket takes them
 * - audio-flood: real AAC frames, no video, at `bytesPerSecond` (default 2 MB/s)
 * - drip: one body byte every `dripMs`
 * - chunk-ext: chunked; then a chunk-size line whose extension never ends (one byte every `dripMs`)
 * - trailer: chunked; then the last chunk and a trailer that never ends (one byte every `dripMs`)
 * - no-headers: audio data with no sequence header at all (a writer can store none of it), 200 kB/s
 */
export type HostileMode = 'huge-tags' | 'audio-flood' | 'drip' | 'chunk-ext' | 'trailer' | 'no-headers';

export interface HostileCdn {
  url: string;
  /** Connections accepted so far. */
  connections: number;
  close(): Promise<void>;
}

interface Fixture {
  /** FLV header, onMetaData, sequence headers and the first GOP, cut at a tag boundary. */
  prefix: Buffer;
  prefixEndTs: number;
  /** Bodies of the fixture's AAC frames. */
  aacFrames: Buffer[];
}

let cached: Fixture | null = null;

function fixture(): Fixture {
  if (cached) return cached;
  const file = readFileSync(fixtureFlv);
  const aacFrames: Buffer[] = [];
  let pos = 13;
  let keyframes = 0;
  let cut = 0;
  let cutTs = 0;
  while (pos + 11 <= file.length) {
    const type = file[pos]!;
    const size = file.readUIntBE(pos + 1, 3);
    const ts = file.readUIntBE(pos + 4, 3);
    const body = file.subarray(pos + 11, pos + 11 + size);
    if (type === TagType.Video && body[0] === 0x17 && body[1] === 1 && ++keyframes === 2 && cut === 0) {
      cut = pos;
      cutTs = ts;
    }
    if (type === TagType.Audio && body[1] === 1) aacFrames.push(Buffer.from(body));
    pos += 11 + size + 4;
  }
  cached = { prefix: file.subarray(0, cut), prefixEndTs: cutTs, aacFrames };
  return cached;
}

const HEAD_PLAIN = 'HTTP/1.1 200 OK\r\nContent-Type: video/x-flv\r\nConnection: close\r\n\r\n';
const HEAD_CHUNKED = 'HTTP/1.1 200 OK\r\nContent-Type: video/x-flv\r\nTransfer-Encoding: chunked\r\n\r\n';
const chunk = (b: Buffer): Buffer => Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')]);

/** Writes `next()` while the socket accepts it, at most `bytesPerSecond` (0 = as fast as it goes). */
function pump(socket: Socket, next: () => Buffer, bytesPerSecond: number): void {
  const started = Date.now();
  let sent = 0;
  const step = (): void => {
    while (!socket.destroyed) {
      if (bytesPerSecond > 0 && sent > ((Date.now() - started) / 1000) * bytesPerSecond) {
        setTimeout(step, 20);
        return;
      }
      const b = next();
      sent += b.length;
      if (!socket.write(b)) {
        socket.once('drain', step);
        return;
      }
    }
  };
  step();
}

function drip(socket: Socket, byte: string, ms: number): void {
  const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write(byte)), ms);
  socket.on('close', () => clearInterval(timer));
}

function serve(socket: Socket, mode: HostileMode, o: { dripMs: number; bytesPerSecond: number }): void {
  const f = fixture();
  socket.on('error', () => undefined);
  let ts = f.prefixEndTs;
  switch (mode) {
    case 'huge-tags': {
      const huge = encodeTag(TagType.Audio, 0, Buffer.alloc(0xffffff, 0xaf));
      socket.write(HEAD_PLAIN + '');
      socket.write(f.prefix);
      pump(socket, () => {
        huge.writeUIntBE((ts += 23) & 0xffffff, 4, 3);
        return huge;
      }, 0);
      return;
    }
    case 'audio-flood': {
      socket.write(HEAD_PLAIN);
      socket.write(f.prefix);
      let i = 0;
      pump(socket, () => {
        const tags: Buffer[] = [];
        for (let n = 0; n < 64; n++) tags.push(encodeTag(TagType.Audio, (ts += 1), f.aacFrames[i++ % f.aacFrames.length]!));
        return Buffer.concat(tags);
      }, o.bytesPerSecond);
      return;
    }
    case 'no-headers': {
      socket.write(HEAD_PLAIN);
      socket.write(f.prefix.subarray(0, 13));
      let i = 0;
      pump(socket, () => encodeTag(TagType.Audio, (ts += 23), f.aacFrames[i++ % f.aacFrames.length]!), 200_000);
      return;
    }
    case 'drip':
      socket.write(HEAD_PLAIN);
      socket.write(f.prefix);
      drip(socket, '\x08', o.dripMs);
      return;
    case 'chunk-ext':
      socket.write(HEAD_CHUNKED);
      socket.write(chunk(f.prefix));
      socket.write('10;');
      drip(socket, 'a', o.dripMs);
      return;
    case 'trailer':
      socket.write(HEAD_CHUNKED);
      socket.write(chunk(f.prefix));
      socket.write('0\r\nX-Trailer: ');
      drip(socket, 'a', o.dripMs);
      return;
  }
}

/** Starts the hostile CDN; every request (any path) gets `mode`. */
export async function startHostileCdn(mode: HostileMode, options: { dripMs?: number; bytesPerSecond?: number } = {}): Promise<HostileCdn> {
  const o = { dripMs: options.dripMs ?? 1000, bytesPerSecond: options.bytesPerSecond ?? 2_000_000 };
  const sockets = new Set<Socket>();
  const cdn: HostileCdn = { url: '', connections: 0, close: async () => undefined };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // Wait for the request head, then answer without reading further.
    socket.once('data', () => {
      cdn.connections++;
      serve(socket, mode, o);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  cdn.url = `http://127.0.0.1:${port}`;
  cdn.close = () => new Promise<void>((resolve) => {
    for (const s of sockets) s.destroy();
    server.close(() => resolve());
  });
  return cdn;
}
