// Smoke test of the multi-room benchmark: a tiny real run (2 rooms, 3-s windows) prints one JSON object with both rows and leaves nothing behind.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBench, runJs, smokeClip } from './run-bench.js';


/** Pids of live processes whose environment carries `marker` (every descendant of the benchmark inherits it). */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(marker)) found.push(Number(name));
    } catch {
      // gone or not ours
    }
  }
  return found;
}

const num = expect.any(Number);

describe('npm run bench (multi-room)', () => {
  it('runs liverec and ffmpeg on 2 rooms and prints the figures as one JSON object', async () => {
    expect(existsSync(runJs), 'run `npx tsc -p .` first: the benchmark runs from dist/').toBe(true);
    const work = mkdtempSync(join(tmpdir(), 'liverec-bench-smoke-'));
    const tmp = join(work, 'tmp');
    const out = join(work, 'results');
    const tag = `${process.pid}-${Date.now()}`;
    const marker = `LIVEREC_BENCH_SMOKE=${tag}`;
    try {
      mkdirSync(tmp);
      // --clip: the committed fixture, so the smoke run encodes nothing (real-content.test.ts covers the generated clips).
      const args = ['--rooms', '2', '--seconds', '3', '--warmup', '1', '--bitrate-kbps', '1500', '--api-rps', '100', '--json', '--out', out, '--clip', smokeClip];
      const { code, stdout, stderr } = await runBench(args, { ...process.env, TMPDIR: tmp, LIVEREC_BENCH_SMOKE: tag });
      expect(code, stderr).toBe(0);

      const lines = stdout.trim().split('\n');
      expect(lines).toHaveLength(1);
      const result = JSON.parse(lines[0]!);
      expect(result.machine).toMatchObject({ cpuModel: expect.any(String), cores: num, ramGiB: num, node: process.version, kernel: expect.any(String) });
      expect(result.runs).toHaveLength(1);
      const run = result.runs[0];
      expect(run).toMatchObject({ rooms: 2, bitrateKbps: 1500, seconds: 3, content: { name: 'h264-aac.flv', kbps: num }, padWithFiller: false, flags: expect.any(Array) });
      expect(run.liverec).toMatchObject({
        roomsPerWorker: null, workers: 1, placement: 'default: 1 thread(s)', input: { mbps: num, bytes: num }, outMbps: num, totals: { inBytes: num, outBytes: num, outOverIn: num }, cpu: { cpuPct: num, cpuS: num }, cpuSecondsPerGb: num,
        cpuUnderApiLoad: { cpuPct: num }, rssPeakMiB: num, rssPerRoomMiB: num,
        pace: { lowest: num, windows: num }, simPace: { lowest: num }, brecDurationRatio: { samples: num },
        api: { targetRps: 100, sent: num, p50Ms: num, p99Ms: num, maxMs: num, httpErrors: num, netErrors: num },
      });
      expect(run.liverec.input.bytes).toBeGreaterThan(0);
      expect(run.liverec.api.sent).toBeGreaterThan(0);
      expect(run.ffmpeg).toMatchObject({ processes: 2, input: { mbps: num }, outMbps: num, totals: { outOverIn: num }, cpu: { cpuPct: num }, cpuSecondsPerGb: num, rssPeakMiB: num, rssPerRoomMiB: num });
      expect(run.ffmpeg.input.bytes).toBeGreaterThan(0);
      expect(run.ratios).toMatchObject({ rssPerRoom: num });
      // A 3-s window of two small streams can cost ffmpeg less than one /proc tick: then the ratio is null and flagged.
      if (run.ratios.cpuPerGb === null) expect(run.flags.join('\n')).toMatch(/below \/proc's 10-ms tick/);
      else expect(run.ratios.cpuPerGb).toBeGreaterThan(0);
      expect(Object.keys(run.targets).sort()).toEqual(['apiP99Ms', 'cpuPerGbRatio', 'pace', 'rssPerRoomMiB']);

      // The same figures are on disk, and nothing is left running or lying around.
      const files = readdirSync(out);
      expect(files).toEqual([expect.stringMatching(/^\d{4}-\d{2}-\d{2}-2r\.json$/)]);
      expect(JSON.parse(readFileSync(join(out, files[0]!), 'utf8')).runs[0].rooms).toBe(2);
      expect(processesWith(marker)).toEqual([]);
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 90_000);
});
