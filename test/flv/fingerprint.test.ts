// The duplicate-chunk fingerprint: same content → same value wherever it sits in memory; any change → different.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Fingerprint64, hashBytesHex } from '../../src/flv/fingerprint.js';

describe('Fingerprint64', () => {
  it('does not depend on the alignment or the surrounding buffer of the bytes', () => {
    const fp = new Fingerprint64();
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
    const data = randomBytes(1000);
    const ref = hashBytesHex(data);
    for (let i = 0; i < data.length; i += 7) {
      const copy = Buffer.from(data);
      copy[i]! ^= 1 << (i % 8);
      expect(hashBytesHex(copy)).not.toBe(ref);
    }
    expect(hashBytesHex(data.subarray(0, 999))).not.toBe(ref);
    expect(hashBytesHex(Buffer.concat([data, Buffer.alloc(1)]))).not.toBe(ref);
  });

  it('separates tag boundaries: [ab][c] and [a][bc] differ', () => {
    const fp = new Fingerprint64();
    const x = fp.reset().addBytes(Buffer.from('ab')).addBytes(Buffer.from('c')).hex();
    const y = fp.reset().addBytes(Buffer.from('a')).addBytes(Buffer.from('bc')).hex();
    expect(x).not.toBe(y);
    expect(hashBytesHex(Buffer.from('abc'))).toMatch(/^[0-9A-F]{16}$/);
  });
});
