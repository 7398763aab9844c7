// TsScanner: the same TS bytes give the same counts and times however the reads cut them, lost sync included.
import { describe, expect, it } from 'vitest';
import { TsScanner } from '../../src/hls/ts-packets.js';
import { hlsClips } from '../../src/simulator/hls/hls-clips.js';

function scan(data: Uint8Array, cuts: number[]): TsScanner {
  const s = new TsScanner();
  let p = 0;
  for (const n of cuts) {
    if (p >= data.length) break;
    s.push(data.subarray(p, Math.min(data.length, p + n)));
    p += n;
  }
  if (p < data.length) s.push(data.subarray(p));
  return s;
}

const figures = (s: TsScanner): unknown => ({
  v: s.videoFrames, a: s.audioFrames, vb: s.videoBytes, ab: s.audioBytes, an: s.anomalies, video: { ...s.video }, audio: { ...s.audio }, aligned: s.aligned,
});

describe('TsScanner chunking', () => {
  it('counts the same for whole input, packet-sized reads, odd reads and 1-byte reads', () => {
    const seg = Buffer.concat(hlsClips('ts')[0]!.segments.map((g) => g.bytes));
    const whole = figures(scan(seg, []));
    expect((whole as { v: number }).v).toBeGreaterThan(0);
    let seed = 7;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 5000 + 1;
    expect(figures(scan(seg, Array(seg.length).fill(188)))).toEqual(whole);
    expect(figures(scan(seg, Array.from({ length: seg.length }, random)))).toEqual(whole);
    expect(figures(scan(seg.subarray(0, 20_000), Array(20_000).fill(1)))).toEqual(figures(scan(seg.subarray(0, 20_000), [])));
  });

  it('resynchronises the same way when junk sits at a read boundary', () => {
    const seg = Buffer.concat(hlsClips('ts')[0]!.segments.map((g) => g.bytes)).subarray(0, 188 * 400);
    const broken = Buffer.concat([seg.subarray(0, 188 * 100 + 50), Buffer.from([1, 2, 3, 4, 5]), seg.subarray(188 * 100 + 50)]);
    const whole = figures(scan(broken, []));
    expect((whole as { an: number }).an).toBeGreaterThan(0);
    for (const first of [188 * 100, 188 * 100 + 10, 188 * 100 + 52, 188 * 100 + 60]) {
      expect(figures(scan(broken, [first, 3000, 7, 100_000]))).toEqual(whole);
    }
  });
});
