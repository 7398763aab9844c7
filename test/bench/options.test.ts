// The benchmark's options: the recorders at once or in which order, and the user/system split of a recorder's CPU.
import { describe, expect, it } from 'vitest';
import { procFigures } from '../../bench/metrics.js';
import { parseOptions } from '../../bench/options.js';
import { cpuSplit } from '../../bench/proc.js';

describe('bench options and CPU figures', () => {
  it('records both at once by default; one after the other with --sequential or --ffmpeg-first', () => {
    expect(parseOptions([])).toMatchObject({ concurrent: true, ffmpegFirst: false, skipFfmpeg: false });
    expect(parseOptions(['--sequential'])).toMatchObject({ concurrent: false, ffmpegFirst: false });
    expect(parseOptions(['--ffmpeg-first'])).toMatchObject({ concurrent: false, ffmpegFirst: true });
    expect(parseOptions(['--no-ffmpeg'])).toMatchObject({ concurrent: false, skipFfmpeg: true });
  });

  it('splits a process CPU into user and system time, and a window keeps both', () => {
    const own = cpuSplit(process.pid)!;
    expect(own.userS).toBeGreaterThan(0);
    expect(own.sysS).toBeGreaterThanOrEqual(0);
    const at = (t: number, cpuS: number, userS: number) => ({ t, cpuS, userS, rssKiB: 1024, alive: 1, machineS: 0, benchS: 0 });
    const f = procFigures([at(0, 1, 0.6), at(2000, 2, 1.3)]);
    expect(f.cpuS).toBeCloseTo(1);
    expect(f.userS).toBeCloseTo(0.7);
    expect(f.wallS).toBeCloseTo(2);
  });
});
