// The benchmark's CPU ratio: a recorder whose CPU in the window was below /proc's tick gives no ratio and a flag, never Infinity.
import { describe, expect, it } from 'vitest';
import { comparisonFlags, cpuRatio, type FfmpegFigures, type LiverecFigures } from '../../bench/figures.js';

/** Only the fields the comparison reads; the rest of the figures do not matter here. */
function figures(cpuSecondsPerGb: number, peer: Partial<FfmpegFigures['peer']> = {}): LiverecFigures & FfmpegFigures {
  return {
    cpuSecondsPerGb, input: { mbps: 3, bytes: 1e6 }, totals: { inBytes: 1e6, outBytes: 1e6, outOverIn: 1 },
    peer: { source: 'devDependency', version: 'ffmpeg version 4.1', probe: { files: 2, unclean: 0, firstProblem: null }, ...peer },
  } as unknown as LiverecFigures & FfmpegFigures;
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

  it('flags a peer whose files do not probe clean, and an HLS run against the 2018 devDependency', () => {
    const broken = figures(4, { probe: { files: 2, unclean: 1, firstProblem: 'a.mp4: Non-monotonous DTS' } });
    expect(comparisonFlags(figures(3), broken, false)).toEqual([expect.stringMatching(/^1 of 2 ffmpeg files do not probe clean .*Non-monotonous DTS/)]);
    expect(comparisonFlags(figures(3), figures(4), false, 'hls-fmp4')).toEqual([expect.stringMatching(/HLS peer is the 2018 ffmpeg devDependency/)]);
    expect(comparisonFlags(figures(3), figures(4, { source: 'PATH', version: 'ffmpeg version 5.1.6' }), false, 'hls-fmp4')).toEqual([]);
  });
});
