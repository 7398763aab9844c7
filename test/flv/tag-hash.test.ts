// The one-call tag hash (WebAssembly) against the NALU walk it replaced: equal values for frames with and without filler, cut or oversized NALUs.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Fingerprint64 } from '../../src/flv/fingerprint.js';
import { tagContentHash } from '../../src/flv/rules/remove-duplicated-chunk.js';
import { type FlvTag, TagFlag, TagType } from '../../src/flv/tag.js';
import { TagArena } from '../../src/flv/tag-arena.js';
import { assemble, wasmHash } from '../../src/flv/wasm-hash.js';
import { HASH_MODULE_SCALAR, HASH_MODULE_SIMD } from '../../src/flv/wasm-hash-bytes.js';

/** The walk as specified: prefix, every NALU but filler (cut to the body), then what follows the last NALU. */
function walked(body: Uint8Array, frame: boolean): [number, number] {
  const fp = new Fingerprint64(true).reset();
  if (!frame) return signed(fp.addBytes(body).digest());
  const hevc = (body[0]! & 0x0f) === 12;
  const filler = hevc ? 38 : 12;
  fp.addBytes(body.subarray(0, 5));
  let pos = 5;
  while (pos + 5 <= body.length) {
    const size = ((body[pos]! << 24) | (body[pos + 1]! << 16) | (body[pos + 2]! << 8) | body[pos + 3]!) >>> 0;
    const b = body[pos + 4]!;
    if (b & 0x80) break;
    const type = hevc ? (b >> 1) & 0x3f : b & 0x1f;
    if (type !== filler) fp.addBytes(body.subarray(pos, Math.min(body.length, pos + 4 + size)));
    pos += 4 + size;
  }
  if (pos < body.length) fp.addBytes(body.subarray(pos));
  return signed(fp.digest());
}

/** Tags keep their hash as signed 32-bit halves (small integers in V8). */
const signed = ([hi, lo]: [number, number]): [number, number] => [hi | 0, lo | 0];

function nalu(header: number[], size: number, declared = size + header.length): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(declared >>> 0);
  return Buffer.concat([len, Buffer.from(header), randomBytes(size)]);
}

function frame(codec: 7 | 12, parts: Buffer[]): Buffer {
  return Buffer.concat([Buffer.from([0x20 | codec, 1, 0, 0, 0]), ...parts]);
}

const tag = (type: number, flag: number, data: Uint8Array): FlvTag =>
  ({ type, flag, size: data.length, timestamp: 0, index: 1, data, nalus: null, dataHash: null }) as FlvTag;

function hashOf(t: FlvTag): [number, number] {
  tagContentHash(t);
  return [t.hashHi!, t.hashLo!];
}

describe('tagContentHash in one WebAssembly call', () => {
  it('is available here (the test would compare the walk with itself otherwise)', () => {
    expect(wasmHash()).not.toBeNull();
  });

  const avcFiller = [0x0c];
  const hevcFiller = [38 << 1, 1];
  const cases: [string, Buffer, boolean][] = [
    ['AVC frame', frame(7, [nalu([0x65], 3000), nalu([0x06], 20)]), true],
    ['AVC frame with filler', frame(7, [nalu([0x41], 1500), nalu(avcFiller, 4000), nalu([0x41], 7)]), true],
    ['AVC frame, last NALU cut', frame(7, [nalu([0x41], 200), nalu([0x41], 50, 900)]), true],
    ['AVC frame, NALU length near 2^32', frame(7, [nalu([0x41], 100), nalu([0x41], 10, 0xfffffff0)]), true],
    ['AVC frame, forbidden bit set', frame(7, [nalu([0x41], 64), nalu([0xc1], 64), nalu([0x41], 64)]), true],
    ['AVC frame, 3 stray bytes at the end', Buffer.concat([frame(7, [nalu([0x41], 99)]), Buffer.from([1, 2, 3])]), true],
    ['HEVC frame with filler', frame(12, [nalu([1 << 1, 1], 2500), nalu(hevcFiller, 700), nalu([1 << 1, 1], 30)]), true],
    ['HEVC frame, filler only', frame(12, [nalu(hevcFiller, 700)]), true],
    ['AVC frame of exactly 6 bytes', Buffer.from([0x27, 1, 0, 0, 0, 9]), true],
    ['audio body', randomBytes(371), false],
    ['long audio-like body', randomBytes(40_000), false],
  ];

  it.each(cases)('%s: the same value as the walk, in and outside module memory', (_name, body, isFrame) => {
    const type = isFrame ? TagType.Video : TagType.Audio;
    const flag = isFrame ? TagFlag.None : TagFlag.None;
    const want = walked(body, isFrame);
    expect(hashOf(tag(type, flag, Uint8Array.from(body)))).toEqual(want);
    const arena = new TagArena();
    try {
      const inModule = arena.alloc(body.length);
      inModule.set(body);
      expect(inModule.buffer).toBe(wasmHash()!.slabs.buffer);
      expect(hashOf(tag(type, flag, inModule))).toEqual(want);
    } finally {
      arena.dispose();
    }
  });

  it('hashes a header or a short video body whole, and leaves a running fingerprint untouched', () => {
    const running = new Fingerprint64(true).reset().addBytes(Buffer.from('before'));
    const header = frame(7, [nalu([0x67], 30)]);
    expect(hashOf(tag(TagType.Video, TagFlag.Header | TagFlag.Keyframe, header))).toEqual(walked(header, false));
    const short = Buffer.from([0x27, 1, 0, 0, 0]);
    expect(hashOf(tag(TagType.Video, TagFlag.None, short))).toEqual(walked(short, false));
    running.addBytes(Buffer.from('after'));
    expect(running.hex()).toBe(new Fingerprint64(true).reset().addBytes(Buffer.from('before')).addBytes(Buffer.from('after')).hex());
  });

  it('skips filler: a frame and the same frame with its filler removed hash alike, other frames differ', () => {
    const a = nalu([0x41], 900);
    const b = nalu([0x41], 300);
    const padded = hashOf(tag(TagType.Video, TagFlag.None, frame(7, [a, nalu(avcFiller, 5000), b])));
    const stripped = hashOf(tag(TagType.Video, TagFlag.None, frame(7, [a, b])));
    const other = hashOf(tag(TagType.Video, TagFlag.None, frame(7, [b, a])));
    expect(padded).toEqual(stripped);
    expect(other).not.toEqual(stripped);
  });
});

describe('shipped module bytes', () => {
  it('are what the assembler makes, SIMD and scalar (regenerate with scripts/wasm-hash-bytes.mjs)', () => {
    expect(Buffer.from(HASH_MODULE_SIMD, 'base64').equals(Buffer.from(assemble(true)))).toBe(true);
    expect(Buffer.from(HASH_MODULE_SCALAR, 'base64').equals(Buffer.from(assemble(false)))).toBe(true);
  });
});
