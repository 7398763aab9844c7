// Issue 36, box readers: a junk trun count or deep nesting is refused from the bytes present, without a loop over the claim.
import { describe, expect, it } from 'vitest';
import { boxDepth, moofProblem } from '../../src/hls/box-guard.js';
import { boxes, parseMoof } from '../../src/hls/mp4-boxes.js';
import { clampTargetMs } from '../../src/hls/hls-limits.js';
import { trunBomb } from './hostile-hls.js';

const nest = (depth: number): Buffer => {
  let b = Buffer.from([0, 0, 0, 8, 0x66, 0x72, 0x65, 0x65]); // free
  for (let i = 0; i < depth; i++) {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(8 + b.length, 0);
    head.write('moof', 4, 'latin1');
    b = Buffer.concat([head, b]);
  }
  return b;
};

describe('fMP4 box readers under hostile input', () => {
  it('a 64-byte moof whose trun claims 0xFFFFFFFF samples is refused, and parsing it does not spin', () => {
    const bomb = trunBomb();
    const moof = boxes(bomb)[0]!;
    expect(moof.end).toBe(64);
    expect(moofProblem(bomb, moof)).toMatch(/4294967295 samples/);
    const t0 = performance.now();
    const runs = parseMoof(bomb, moof, null);
    expect(performance.now() - t0).toBeLessThan(100);
    expect(runs[0]!.samples).toBe(0xffffffff);
  });

  it('nesting depth is counted up to a limit, and a moof inside a moof is refused', () => {
    const deep = nest(12);
    expect(boxDepth(deep, boxes(deep)[0]!)).toBeGreaterThan(8);
    expect(moofProblem(deep, boxes(deep)[0]!)).not.toBeNull();
    const huge = nest(100_000 / 8);
    expect(boxDepth(huge, boxes(huge)[0]!)).toBe(9); // stops at the limit: no deep recursion
  });

  it('target durations are clamped to 0.5–30 s', () => {
    expect(clampTargetMs(5_000_000, 1000)).toBe(30_000);
    expect(clampTargetMs(0.001, 1000)).toBe(500);
    expect(clampTargetMs(0, 1000)).toBe(1000);
    expect(clampTargetMs(Number.NaN, 2000)).toBe(2000);
  });
});
