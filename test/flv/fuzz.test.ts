// Fuzz: 10,000+ mutated/truncated real FLV inputs (AVC; HEVC codec-12 and Enhanced) in random chunk sizes through parser, rules and writer.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { FlvError } from '../../src/flv/errors.js';
import { FlvParser } from '../../src/flv/parser.js';
import { FlvStream, type StreamStep } from '../../src/flv/stream.js';
import { FlvContextWriter } from '../../src/flv/writer/context-writer.js';
import { FlvFileOutput, type FlvFileSystem } from '../../src/flv/writer/file-output.js';
import { clipPath } from '../../src/simulator/clips.js';
import { toEnhancedRaw } from '../hevc/media.js';
import { fixtureFlv, sampleFlv, rng } from './helpers.js';

/** Files in memory, with the positioned-write semantics of the real calls (capacity doubles as they grow). */
class MemoryFs implements FlvFileSystem {
  private readonly store = new Map<string, { buf: Buffer; len: number }>();
  private readonly open = new Map<number, string>();
  private next = 3;
  openSync(path: string): number {
    this.store.set(path, { buf: Buffer.alloc(64 * 1024), len: 0 });
    this.open.set(this.next, path);
    return this.next++;
  }
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number {
    const f = this.store.get(this.open.get(fd)!)!;
    if (position + length > f.buf.length) {
      const grown = Buffer.alloc(Math.max(position + length, f.buf.length * 2));
      f.buf.copy(grown);
      f.buf = grown;
    }
    f.buf.set(buffer.subarray(offset, offset + length), position);
    f.len = Math.max(f.len, position + length);
    return length;
  }
  ftruncateSync(fd: number, len: number): void {
    this.store.get(this.open.get(fd)!)!.len = len;
  }
  closeSync(fd: number): void {
    this.open.delete(fd);
  }
  /** Removes and returns a file's bytes. */
  take(path: string): Buffer {
    const f = this.store.get(path)!;
    this.store.delete(path);
    return f.buf.subarray(0, f.len);
  }
}

/** Output paths live in memory; the (advisory) text log next to them cannot be created there. */
const nowhere = join(tmpdir(), 'liverec-fuzz-no-such-dir');
const CODES = new Set(['NOT_FLV', 'UNSUPPORTED_FLV_HEADER', 'UNKNOWN_TAG_TYPE', 'UNSUPPORTED_CODEC', 'TRUNCATED', 'MISSING_HEADER']);

const sample = readFileSync(sampleFlv);
const fixture = readFileSync(fixtureFlv);
const endTag = Buffer.from([0, 0, 0, 0, 9, 0, 0, 5, 0, 0, 0x50, 0, 0, 0, 0, 0x17, 2, 0, 0, 0]);
const bases = [
  sample.subarray(0, 16_000),
  fixture.subarray(0, 16_000),
  // A restart: data, an End tag, then the whole stream again (script and headers repeat).
  Buffer.concat([fixture.subarray(0, 9_000), endTag, fixture.subarray(9, 9_000)]),
  // HEVC: Bilibili's codec-12 form and the same tags as Enhanced FLV (hvc1).
  readFileSync(clipPath('clip-360p-hevc.flv')).subarray(0, 16_000),
  toEnhancedRaw(readFileSync(clipPath('clip-360p-hevc.flv'))).subarray(0, 16_000),
];

function mutate(base: Buffer, r: () => number): Buffer {
  let b = Buffer.from(base);
  const ops = 1 + Math.floor(r() * 4);
  for (let i = 0; i < ops; i++) {
    const at = Math.floor(r() * b.length);
    switch (Math.floor(r() * 6)) {
      case 0: b[at] = Math.floor(r() * 256); break;
      case 1: b = b.subarray(0, at); break;
      case 2: b = Buffer.concat([b.subarray(0, at), b.subarray(Math.min(b.length, at + 1 + Math.floor(r() * 500)))]); break;
      case 3: b = Buffer.concat([b.subarray(0, at), b.subarray(at, at + Math.floor(r() * 3000)), b.subarray(at)]); break;
      case 4: b = Buffer.concat([b.subarray(0, at), Buffer.from(Array.from({ length: 1 + Math.floor(r() * 40) }, () => Math.floor(r() * 256))), b.subarray(at)]); break;
      default: for (let k = 0; k < 8; k++) b[Math.floor(r() * b.length)] = Math.floor(r() * 256);
    }
    if (b.length === 0) break;
  }
  return b;
}

function runOne(input: Buffer, r: () => number, fs: MemoryFs, seed: number): { error: FlvError | null; files: string[] } {
  const files: string[] = [];
  const output = new FlvFileOutput({
    fs,
    nextPath: ({ index }) => join(nowhere, `${seed}-${index}.flv`),
    onFileClosed: (info) => files.push(info.path),
    keyframeCapacity: 8,
  });
  const writer = new FlvContextWriter(output, { allowMissingHeader: r() < 0.5 });
  const stream = new FlvStream({ preset: r() < 0.5 ? 'recording' : 'tool', writer });
  let error: FlvError | null = null;
  const take = (s: StreamStep): void => {
    error ??= s.error;
  };
  for (let pos = 0; pos < input.length && !error; ) {
    const n = 1 + Math.floor(r() * (r() < 0.3 ? 16 : 4096));
    take(stream.push(Uint8Array.from(input.subarray(pos, pos + n))));
    pos += n;
  }
  if (!error) take(stream.end());
  writer.close();
  return { error, files };
}

describe('fuzz', () => {
  it('10,500 mutations and truncations: no hang, no uncaught exception, only typed errors, every closed file is valid FLV', () => {
    const fs = new MemoryFs();
    const codes = new Map<string, number>();
    let outputs = 0;
    const started = Date.now();
    for (let i = 0; i < 10_500; i++) {
      const seed = 1 + i;
      const r = rng(seed);
      const input = mutate(bases[i % bases.length]!, r);
      let result: ReturnType<typeof runOne>;
      try {
        result = runOne(input, r, fs, seed);
      } catch (err) {
        throw new Error(`seed ${seed}: uncaught ${(err as Error).stack}`);
      }
      if (result.error) {
        expect(result.error, `seed ${seed}`).toBeInstanceOf(FlvError);
        expect(CODES.has(result.error.code), `seed ${seed}: ${result.error.code}`).toBe(true);
        codes.set(result.error.code, (codes.get(result.error.code) ?? 0) + 1);
      }
      for (const path of result.files) {
        const bytes = fs.take(path);
        const parser = new FlvParser();
        const p = parser.push(bytes);
        parser.end();
        expect(p.error, `seed ${seed}`).toBeNull();
        expect(parser.anomalies.truncatedBytes, `seed ${seed}`).toBe(0);
        expect(p.tags[0]?.script?.[0], `seed ${seed}`).toEqual({ type: 'String', value: 'onMetaData' });
        outputs++;
      }
    }
    // The corpus of mutations must actually reach the interesting paths.
    expect(outputs).toBeGreaterThan(5000);
    expect([...codes.keys()].sort()).toEqual(expect.arrayContaining(['NOT_FLV', 'UNKNOWN_TAG_TYPE', 'UNSUPPORTED_CODEC']));
    expect(Date.now() - started).toBeLessThan(50_000);
  }, 60_000);
});
