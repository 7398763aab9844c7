// Segment CRC-32: the native code gives zlib's values for whole and chunked input, and is the one in use on linux-x64.
import { crc32 as zlibCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, crc32Implementation } from '../../src/hls/crc32.js';

function bytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

describe('segment crc32', () => {
  it('uses the prebuilt native code where the package ships it', () => {
    if (process.platform === 'linux' && process.arch === 'x64') expect(crc32Implementation).toBe('native');
    else expect(['native', 'zlib']).toContain(crc32Implementation);
  });

  it('matches zlib on empty, short, odd-sized and large input', () => {
    for (const n of [0, 1, 3, 15, 16, 17, 63, 64, 65, 255, 4096, 65_537, 1_500_000]) {
      const data = bytes(n, n + 1);
      expect(crc32(data)).toBe(zlibCrc32(data));
    }
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });

  it('continues across chunks the way the segment check feeds it', () => {
    const data = bytes(300_000, 42);
    const whole = zlibCrc32(data);
    for (const step of [1, 7, 188, 4096, 65_536, 99_999]) {
      let c = 0;
      for (let p = 0; p < data.length; p += step) c = crc32(data.subarray(p, p + step), c);
      expect(c).toBe(whole);
    }
  });

  it('reads views at any offset into a larger buffer', () => {
    const big = bytes(10_000, 9);
    const view = new Uint8Array(big.buffer, 1234, 5000);
    expect(crc32(view)).toBe(zlibCrc32(Buffer.from(big.buffer, 1234, 5000)));
  });
});
