// Tag memory from pooled slabs: queue semantics, rooms sharing one pool, and `tool fix` on GOPs larger than its reads.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Fingerprint64 } from '../../src/flv/fingerprint.js';
import { FlvParser } from '../../src/flv/parser.js';
import { processFile } from '../../src/flv/process-file.js';
import { FlvStream } from '../../src/flv/stream.js';
import { SlabPool, TagArena } from '../../src/flv/tag-arena.js';
import { FLV_FILE_HEADER, encodeTag } from '../../src/flv/tag-encoding.js';
import { wasmHash } from '../../src/flv/wasm-hash.js';
import { TagFlag, TagType } from '../../src/flv/tag.js';
import { FlvContextWriter } from '../../src/flv/writer/context-writer.js';
import { FlvFileOutput } from '../../src/flv/writer/file-output.js';

const dir = mkdtempSync(join(tmpdir(), 'liverec-arena-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An AVC frame with one slice NALU of random bytes (every frame differs, nothing repeats). */
function frame(key: boolean, bytes: number): Buffer {
  const nal = randomBytes(bytes);
  nal[0] = key ? 0x65 : 0x41;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(bytes);
  return Buffer.concat([Buffer.from([key ? 0x17 : 0x27, 1, 0, 0, 0]), len, nal]);
}

/** FLV with AVC/AAC headers and `gops` GOPs of `frames` frames of `frameBytes`, with audio between frames. */
function synthetic(gops: number, frames: number, frameBytes: number): Buffer {
  const parts: Buffer[] = [Buffer.from(FLV_FILE_HEADER)];
  parts.push(encodeTag(TagType.Video, 0, Uint8Array.from([0x17, 0, 0, 0, 0, 1, 0x64, 0, 0x28, 0xff, 0xe1, 0, 4, 0x67, 0x64, 0, 0x28, 1, 0, 4, 0x68, 0xee, 0x3c, 0x80])));
  parts.push(encodeTag(TagType.Audio, 0, Uint8Array.from([0xaf, 0, 0x12, 0x10])));
  let ts = 0;
  for (let g = 0; g < gops; g++) {
    for (let f = 0; f < frames; f++, ts += 40) {
      parts.push(encodeTag(TagType.Video, ts, frame(f === 0, frameBytes + ((g * 31 + f * 7) % 500))));
      parts.push(encodeTag(TagType.Audio, ts + 5, Buffer.concat([Buffer.from([0xaf, 1]), randomBytes(300)])));
    }
  }
  return Buffer.concat(parts);
}

/** Count and SHA-256 of the data tags' bodies (not script, not headers), in order. */
function dataBodies(bytes: Uint8Array): { count: number; sha256: string } {
  const r = new FlvParser().push(bytes);
  expect(r.error).toBeNull();
  const hash = createHash('sha256');
  let count = 0;
  for (const t of r.tags) {
    if (t.type === TagType.Script || (t.flag & TagFlag.Header) !== 0) continue;
    hash.update(t.data!);
    count++;
  }
  return { count, sha256: hash.digest('hex') };
}

describe('TagArena', () => {
  it('hands out views in stream order and returns the slabs before the oldest live view to the pool', () => {
    const pool = new SlabPool(1024, 8);
    const arena = new TagArena(pool);
    const a = arena.alloc(600);
    const b = arena.alloc(600); // does not fit after a: second slab
    const c = arena.alloc(300);
    expect(a.buffer).not.toBe(b.buffer);
    expect(c.buffer).toBe(b.buffer);
    expect(arena.heldBytes).toBe(2048);
    arena.releaseBefore(b);
    expect(pool.freeSlabs).toBe(1);
    expect(arena.owns(a)).toBe(false);
    expect(arena.owns(b)).toBe(true);
    // Nothing live: only the newest slab stays, emptied, so the next allocation starts at its beginning.
    arena.releaseBefore(null);
    const d = arena.alloc(1000);
    expect(d.buffer).toBe(b.buffer);
    expect(d.byteOffset).toBe(0);
    // A slab freed by one arena is reused by the next that needs one.
    const other = new TagArena(pool);
    expect(other.alloc(10).buffer).toBe(a.buffer);
    arena.dispose();
    expect(pool.freeSlabs).toBe(1);
  });

  it('tail/commit lets reads land back to back, and a tag split by two reads is not copied', () => {
    const bytes = synthetic(1, 3, 5000);
    const arena = new TagArena(new SlabPool(1 << 16, 4));
    const parser = new FlvParser({ alloc: (n) => { throw new Error(`unexpected copy of ${n} bytes`); } });
    const tags = [];
    for (let pos = 0; pos < bytes.length; pos += 777) {
      const region = arena.tail(1024);
      const n = Math.min(777, bytes.length - pos);
      region.set(bytes.subarray(pos, pos + n));
      arena.commit(n);
      tags.push(...parser.push(region.subarray(0, n)).tags);
    }
    const expected = new FlvParser().push(bytes).tags;
    expect(tags).toHaveLength(expected.length);
    tags.forEach((t, i) => expect(Buffer.compare(t.data!, expected[i]!.data!)).toBe(0));
  });
});

describe('slabs in the hash module memory', () => {
  it('the thread pool hands them out first, and a body there hashes like the same bytes anywhere else', () => {
    const region = wasmHash()!.slabs;
    const arena = new TagArena();
    const bytes = randomBytes(200_003);
    for (const [from, to] of [[0, 200_003], [1, 77], [3, 100_000], [5, 5]] as const) {
      const inArena = arena.copy(bytes.subarray(from, to));
      expect(inArena.buffer).toBe(region.buffer);
      const here = new Fingerprint64().reset().addBytes(inArena).digest();
      const elsewhere = new Fingerprint64().reset().addBytes(Buffer.from(bytes.subarray(from, to))).digest();
      expect(here).toEqual(elsewhere);
    }
    // A body that ends exactly at the end of a slab (its tail word is read from the next one, masked).
    const rest = arena.tail(1);
    const last = arena.alloc(rest.length);
    last.set(bytes.subarray(0, last.length));
    expect(new Fingerprint64().reset().addBytes(last).digest()).toEqual(new Fingerprint64().reset().addBytes(Buffer.from(bytes.subarray(0, last.length))).digest());
    arena.dispose();
  });
});

describe('streams sharing one slab pool', () => {
  it('several live streams through one reused read buffer each write exactly their own input', () => {
    const pool = new SlabPool(64 * 1024, 6);
    const inputs = [synthetic(4, 12, 20_000), synthetic(3, 20, 9_000), synthetic(5, 6, 60_000)];
    const rooms = inputs.map((input, i) => {
      const arena = new TagArena(pool);
      const path = join(dir, `room-${i}.flv`);
      const output = new FlvFileOutput({ nextPath: () => path });
      const stream = new FlvStream({ preset: 'recording', arena, stripFillerOnCopy: true, writer: new FlvContextWriter(output) });
      return { input, arena, stream, output, path, pos: 0 };
    });
    const read = new Uint8Array(16 * 1024);
    for (let busy = true; busy;) {
      busy = false;
      for (const r of rooms) {
        if (r.pos >= r.input.length) continue;
        busy = true;
        const n = Math.min(read.length - (r.pos % 7) * 100, r.input.length - r.pos);
        read.set(r.input.subarray(r.pos, r.pos + n));
        r.pos += n;
        const step = r.stream.push(read.subarray(0, n));
        expect(step.error).toBeNull();
        r.stream.detach(read.buffer);
        r.stream.release();
        read.fill(0xee); // whatever still pointed into the read buffer would now be garbage
      }
    }
    for (const r of rooms) {
      r.stream.end();
      r.output.close();
      r.arena.dispose();
      expect(dataBodies(readFileSync(r.path))).toEqual(dataBodies(r.input));
    }
    expect(pool.freeSlabs).toBeGreaterThan(0);
  });
});

describe('tool fix on long GOPs', () => {
  it('a GOP much larger than the read size is written byte for byte', () => {
    // 2 GOPs of ~6.4 MB each: larger than the old pool of 16 reusable 256 KiB reads, whose reuse corrupted them.
    const input = synthetic(2, 200, 32_000);
    const path = join(dir, 'long-gop.flv');
    writeFileSync(path, input);
    const report = processFile({ input: path, outputBase: join(dir, 'long-gop-out') });
    expect(report.status).toBe('OK');
    expect(report.outputFiles).toHaveLength(1);
    expect(dataBodies(readFileSync(report.outputFiles[0]!))).toEqual(dataBodies(input));
  });
});
