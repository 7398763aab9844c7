// Smoke test of `npm run bench -- --protocol hls-ts`: HLS-only rooms, liverec falling back to HLS, ffmpeg reading the same playlists.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBench, smokeClip } from './run-bench.js';

const num = expect.any(Number);

describe('npm run bench --protocol hls-ts', () => {
  it('records HLS TS rooms with both recorders and reports them', async () => {
    const work = mkdtempSync(join(tmpdir(), 'liverec-bench-hls-'));
    const tmp = join(work, 'tmp');
    try {
      mkdirSync(tmp);
      const args = ['--rooms', '1', '--seconds', '4', '--warmup', '1', '--api-rps', '0', '--json', '--out', join(work, 'results'), '--clip', smokeClip, '--protocol', 'hls-ts'];
      const { code, stdout, stderr } = await runBench(args, { ...process.env, TMPDIR: tmp, LIVEREC_MEDIA_CACHE: join(work, 'cache') });
      expect(code, stderr).toBe(0);
      const result = JSON.parse(stdout.trim());
      expect(result.options.protocol).toBe('hls-ts');
      const run = result.runs[0];
      expect(run.liverec).toMatchObject({ input: { bytes: num }, totals: { inBytes: num, outBytes: num } });
      expect(run.ffmpeg).toMatchObject({ processes: 1, input: { bytes: num }, totals: { outBytes: num } });
      // Both recorders got bytes over HLS (the simulator's HLS counters) and wrote them.
      expect(run.liverec.totals.inBytes).toBeGreaterThan(0);
      expect(run.ffmpeg.totals.inBytes).toBeGreaterThan(0);
      expect(run.liverec.totals.outBytes).toBeGreaterThan(run.liverec.totals.inBytes * 0.5);
      expect(run.ffmpeg.totals.outBytes).toBeGreaterThan(run.ffmpeg.totals.inBytes * 0.5);
      expect(readdirSync(join(work, 'results'))).toEqual([expect.stringMatching(/-1r-hls-ts\.json$/)]);
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 90_000);
});
