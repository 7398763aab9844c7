// Many small HTTP chunks in every socket read (a loaded machine, or a CDN with small chunks): the recording is exact.
import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileClosedData } from '../../src/events/types.js';
import { FlvParser } from '../../src/flv/parser.js';
import { generatedMedia } from '../../src/media/generated-media.js';
import { realClipSpec } from '../../src/simulator/real-clips.js';
import { probe } from '../support/media-tools.js';
import { type Harness, startHarness } from './harness.js';

const BURSTY = 26001;
const PLAIN = 26002;

/** Deterministic sizes, so a failure can be replayed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/**
 * A CDN on loopback serving `file` once per connection. Bursty: chunked, 1–4096-byte chunks, ~256 KiB of them
 * per socket write with a pause between writes, so each 64 KiB read holds dozens of chunks and most tags span
 * chunks and reads. Plain: the file in one write, no chunking.
 */
async function startCdn(file: Buffer, bursty: boolean): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (!bursty) {
      socket.end(Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: video/x-flv\r\nConnection: close\r\n\r\n'), file]));
      return;
    }
    socket.write('HTTP/1.1 200 OK\r\nContent-Type: video/x-flv\r\nTransfer-Encoding: chunked\r\n\r\n');
    const rand = prng(0x5eed);
    let pos = 0;
    const burst = (): void => {
      if (socket.destroyed) return;
      const parts: Buffer[] = [];
      for (let bytes = 0; bytes < 256 * 1024 && pos < file.length;) {
        const n = Math.min(file.length - pos, 1 + Math.floor(rand() * 4096));
        parts.push(Buffer.from(`${n.toString(16)}\r\n`), file.subarray(pos, pos + n), Buffer.from('\r\n'));
        pos += n;
        bytes += n;
      }
      if (pos >= file.length) {
        socket.end(Buffer.concat([...parts, Buffer.from('0\r\n\r\n')]));
        return;
      }
      socket.write(Buffer.concat(parts));
      setTimeout(burst, 30);
    };
    burst();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    }),
  };
}

/** Audio and video tags of an FLV file: type, timestamp and body, in order. */
function mediaTags(bytes: Buffer): { type: number; timestamp: number; body: Buffer }[] {
  return new FlvParser().push(bytes).tags
    .filter((t) => t.type === 8 || t.type === 9)
    .map((t) => ({ type: t.type, timestamp: t.timestamp, body: Buffer.from(t.data!) }));
}

describe('stream bytes arriving as many small chunks per read', () => {
  let h: Harness;
  let input: Buffer;
  const cdns: { close: () => Promise<void> }[] = [];
  beforeAll(async () => {
    // Real 1080p content (generated once and cached): keyframes of ~100 KB span many chunks and several reads.
    input = readFileSync(await generatedMedia(realClipSpec(3000)));
    const bursty = await startCdn(input, true);
    const plain = await startCdn(input, false);
    cdns.push(bursty, plain);
    h = await startHarness({
      rooms: [
        { roomId: BURSTY, name: 'bursty', live: true, streamHost: bursty.url },
        { roomId: PLAIN, name: 'plain', live: true, streamHost: plain.url },
      ],
    });
  }, 180_000);
  afterAll(async () => {
    await h?.close();
    for (const c of cdns) await c.close();
  });

  it('records exactly the tags that one plain write of the same file gives, and the file decodes cleanly', async () => {
    const closed = async (roomId: number): Promise<Buffer> => {
      const e = await h.waitEvent('FileClosed', (x) => x.EventData.RoomId === roomId, 60_000);
      const path = `${h.workDir}/${(e.EventData as FileClosedData).RelativePath}`;
      expect((await probe(path)).errors).toBe('');
      return readFileSync(path);
    };
    const [bursty, plain] = await Promise.all([closed(BURSTY), closed(PLAIN)]);
    const got = mediaTags(bursty);
    const want = mediaTags(plain);
    const inputVideo = mediaTags(input).filter((t) => t.type === 9).length;
    expect(want.filter((t) => t.type === 9).length).toBe(inputVideo);
    expect(got.length).toBe(want.length);
    const firstDiff = got.findIndex((t, i) => t.type !== want[i]!.type || t.timestamp !== want[i]!.timestamp || !t.body.equals(want[i]!.body));
    expect(firstDiff).toBe(-1);
  });
});
