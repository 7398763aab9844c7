// The benchmark's CPU ratio: a recorder whose CPU in the window was below /proc's tick gives no ratio and a flag, never Infinity.
import { describe, expect, it } from 'vitest';
import { comparisonFlags, cpuRatio, type FfmpegFigures, type LiverecFigures } from '../../bench/figures.js';

/** Only the fields the comparison reads; the rest of the figures do not matter here. */
function figures(cpuSecondsPerGb: number): LiverecFigures & FfmpegFigures {
  return { cpuSecondsPerGb, input: { mbps: 3, bytes: 1e6 }, totals: { inBytes: 1e6, outBytes: 1e6, outOverIn: 1 } } as unknown as LiverecFigures & FfmpegFigures;
}

describe('CPU ratio', () => {
  it('divides when both recorders used measurable CPU', () => {
    expect(cpuRatio(figures(3), figures(4))).toBe(0.75);
    expect(comparisonFlags(figures(3), figures(4), false)).toEqual([]);
  });

  it('is null and flagged when either recorder measured zero CPU', () => {
    expect(cpuRatio(figures(3), figures(0))).toBeNull();
    expect(cpuRatio(figures(0), figures(0))).toBeNull();
    expect(comparisonFlags(figures(3), figures(0), false)).toEqual([expect.stringMatching(/^CPU of ffmpeg in the window was below \/proc's 10-ms tick/)]);
    expect(comparisonFlags(figures(0), figures(0), false)).toEqual([expect.stringMatching(/^CPU of liverec and ffmpeg /)]);
    expect(JSON.stringify({ r: cpuRatio(figures(3), figures(0)) })).toBe('{"r":null}');
  });
});
