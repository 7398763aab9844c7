// The HLS pace estimator: a step series (whole segments) gives a slope near 1, where 10-s windows swing by a segment.
import { describe, expect, it } from 'vitest';
import { lowestPace, slopePace } from '../../bench/pace.js';

/** Media ms of a recorder that keeps up, sampled every second, advancing 1920 ms per 1.92-s segment. */
function steps(rate: number, seconds = 45): { x: number; y: number }[] {
  return Array.from({ length: seconds + 1 }, (_, i) => ({ x: i * 1000, y: Math.floor((i * rate) / 1.92) * 1920 }));
}

describe('slopePace', () => {
  it('averages segment steps out and still sees a recorder that falls behind', () => {
    const keepsUp = new Map([[1, steps(1)], [2, steps(1.0001)]]);
    // 10-s windows see five segments in some windows: below the 0.99 target for a recorder that keeps up.
    expect(lowestPace(keepsUp, 10_000).lowest).toBeLessThan(0.97);
    const s = slopePace(keepsUp);
    expect(s.lowest).toBeGreaterThan(0.98);
    expect(s.lowest).toBeLessThan(1.02);
    expect(s.windows).toBe(2);
    const behind = slopePace(new Map([[1, steps(1)], [7, steps(0.9)]]));
    expect(behind.lowestRoom).toBe(7);
    expect(behind.lowest).toBeLessThan(0.92);
    expect(behind.lowest).toBeGreaterThan(0.88);
  });
});
