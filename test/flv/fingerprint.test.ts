// The duplicate-chunk fingerprint: same content → same value wherever it sits in memory; any change → different.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Fingerprint64, hashBytesHex } from '../../src/flv/fingerprint.js';

describe.each([['WebAssembly', true], ['JavaScript fallback', false]])('Fingerprint64 (%s)', (_name, wasm) => {
  it('does not depend on the alignment or the surrounding buffer of the bytes', () => {
    const fp = new Fingerprint64(wasm);
    for (let i = 0; i < 3000; i++) {
      const n = Math.floor(Math.random() * 400);
      const data = randomBytes(n);
      const ref = fp.reset().addBytes(Uint8Array.from(data)).hex();
      for (let r = 0; r < 4; r++) {
        const view = new Uint8Array(new ArrayBuffer(n + r + (i % 5)), r, n);
        view.set(data);
        expect(fp.reset().addBytes(view).hex()).toBe(ref);
      }
    }
  });

  it('changes when any single byte or the length changes', () => {
    const fp = new Fingerprint64(wasm);
    const hex = (b: Uint8Array): string => fp.reset().addBytes(b).hex();
    const data = randomBytes(1000);
    const ref = hex(data);
    for (let i = 0; i < data.length; i += 7) {
      const copy = Buffer.from(data);
      copy[i]! ^= 1 << (i % 8);
      expect(hex(copy)).not.toBe(ref);
    }
    expect(hex(data.subarray(0, 999))).not.toBe(ref);
    expect(hex(Buffer.concat([data, Buffer.alloc(1)]))).not.toBe(ref);
  });

  it('on long bodies (the SIMD stripes): changes with any single word, and with the order of equal-sized blocks', () => {
    const fp = new Fingerprint64(wasm);
    const hex = (b: Uint8Array): string => fp.reset().addBytes(b).hex();
    const data = randomBytes(5000);
    const ref = hex(data);
    const seen = new Set([ref]);
    for (let i = 0; i < data.length; i += 8) {
      const copy = Buffer.from(data);
      copy[i]! ^= 0x80;
      seen.add(hex(copy));
    }
    expect(seen.size).toBe(1 + Math.ceil(data.length / 8));
    const swapped = Buffer.concat([data.subarray(128, 256), data.subarray(0, 128), data.subarray(256)]);
    expect(hex(swapped)).not.toBe(ref);
  });

  it('keeps separate state per instance even when calls interleave', () => {
    const a = new Fingerprint64(wasm).reset().addBytes(Buffer.from('one'));
    const b = new Fingerprint64(wasm).reset().addBytes(Buffer.from('two'));
    a.addBytes(Buffer.from('three'));
    b.addBytes(Buffer.from('four'));
    expect(a.hex()).toBe(new Fingerprint64(wasm).reset().addBytes(Buffer.from('one')).addBytes(Buffer.from('three')).hex());
    expect(b.hex()).toBe(new Fingerprint64(wasm).reset().addBytes(Buffer.from('two')).addBytes(Buffer.from('four')).hex());
    expect(a.hex()).not.toBe(b.hex());
  });

  it('hashes large bodies (module memory grows)', () => {
    const big = randomBytes(3 << 20);
    const fp = new Fingerprint64(wasm);
    expect(fp.reset().addBytes(big).hex()).toBe(fp.reset().addBytes(Buffer.from(big)).hex());
    big[big.length - 1]! ^= 1;
    expect(hashBytesHex(big)).toMatch(/^[0-9A-F]{16}$/);
  });

  it('separates tag boundaries: [ab][c] and [a][bc] differ', () => {
    const fp = new Fingerprint64(wasm);
    const x = fp.reset().addBytes(Buffer.from('ab')).addBytes(Buffer.from('c')).hex();
    const y = fp.reset().addBytes(Buffer.from('a')).addBytes(Buffer.from('bc')).hex();
    expect(x).not.toBe(y);
    expect(hashBytesHex(Buffer.from('abc'))).toMatch(/^[0-9A-F]{16}$/);
  });
});
