// FLV repair benchmark: liverec `tool fix` vs `ffmpeg -c copy`, file to file, CPU-seconds per GB and peak RSS.
// Run: npm run bench:flv   (env BENCH_FLV_MB=300, BENCH_FLV_SMALL_MB=30, BENCH_FLV_RUNS=3, BENCH_FLV_KEEP=1,
// BENCH_FLV_HIGH=1 adds an informational run on a 720p 4 Mbps source encoded on the spot)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ffmpeg from '@ffmpeg-installer/ffmpeg';
import { packageRoot } from '../src/paths.js';
import { buildRepeatedFlv, type BuiltInput } from './flv-input.js';
import { type Measurement, measure } from './flv-measure.js';

const MB = 1024 * 1024;
const GB = 1e9;
const bigMb = Number(process.env.BENCH_FLV_MB ?? 300);
const smallMb = Number(process.env.BENCH_FLV_SMALL_MB ?? 30);
const runs = Math.max(1, Number(process.env.BENCH_FLV_RUNS ?? 3));
const cli = join(packageRoot, 'dist', 'src', 'cli', 'main.js');
const fixture = join(packageRoot, 'test', 'fixtures', 'media', 'h264-aac.flv');

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function liverec(input: string, base: string): Promise<Measurement> {
  rmSync(`${base}.fix_p001.flv`, { force: true });
  const m = await measure(process.execPath, [cli, 'tool', 'fix', input, base]);
  if (m.code !== 0) throw new Error(`liverec tool fix failed (${m.code}): ${m.stderr}`);
  return m;
}

async function ffmpegCopy(input: string, out: string): Promise<Measurement> {
  rmSync(out, { force: true });
  const m = await measure(ffmpeg.path, ['-hide_banner', '-loglevel', 'error', '-y', '-i', input, '-c', 'copy', '-f', 'flv', out]);
  if (m.code !== 0) throw new Error(`ffmpeg failed (${m.code}): ${m.stderr}`);
  return m;
}

interface Row { name: string; input: BuiltInput; lr: Measurement[]; ff: Measurement[] }

async function bench(name: string, input: BuiltInput, dir: string): Promise<Row> {
  const row: Row = { name, input, lr: [], ff: [] };
  for (let i = 0; i < runs; i++) {
    // Alternate so both tools see the same page-cache and machine noise.
    row.lr.push(await liverec(input.path, join(dir, `${name}-liverec`)));
    row.ff.push(await ffmpegCopy(input.path, join(dir, `${name}-ffmpeg.flv`)));
  }
  const out = statSync(join(dir, `${name}-liverec.fix_p001.flv`)).size;
  process.stdout.write(`  ${name}: ${(input.bytes / MB).toFixed(1)} MiB in, liverec wrote ${(out / MB).toFixed(1)} MiB (${input.tags} tags, ${(input.durationMs / 3_600_000).toFixed(2)} h)\n`);
  return row;
}

/** A 20 s 1280x720 30 fps ~4 Mbps H.264 + AAC source: larger tags, as in real live streams. */
function highBitrateSource(dir: string): string {
  const out = join(dir, 'source-720p.flv');
  execFileSync(ffmpeg.path, [
    '-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000',
    '-t', '20', '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '4000k', '-maxrate', '4000k', '-bufsize', '8000k', '-g', '60', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '128k', '-f', 'flv', out,
  ]);
  return out;
}

function ratioLine(label: string, row: Row): void {
  const gb = row.input.bytes / GB;
  const lr = median(row.lr.map((m) => m.cpuS)) / gb;
  const ff = median(row.ff.map((m) => m.cpuS)) / gb;
  process.stdout.write(`${label}: liverec ${lr.toFixed(3)} CPU-s/GB vs ffmpeg -c copy ${ff.toFixed(3)} CPU-s/GB: ratio ${(lr / ff).toFixed(2)}\n`);
}

function report(rows: Row[]): void {
  const fmt = (n: number, d = 3): string => n.toFixed(d).padStart(8);
  process.stdout.write(`\nCPU (median of ${runs} runs; user+sys of the child, from its parent's cutime/cstime)\n`);
  process.stdout.write('  input     tool       user s    sys s    cpu s   cpu s/GB  peak RSS MiB\n');
  for (const r of rows) {
    const gb = r.input.bytes / GB;
    for (const [tool, ms] of [['liverec', r.lr], ['ffmpeg', r.ff]] as const) {
      const cpu = median(ms.map((m) => m.cpuS));
      process.stdout.write(`  ${r.name.padEnd(8)}  ${tool.padEnd(8)} ${fmt(median(ms.map((m) => m.userS)))} ${fmt(median(ms.map((m) => m.sysS)))} ${fmt(cpu)} ${fmt(cpu / gb)} ${fmt(median(ms.map((m) => m.peakRssMiB)), 1)}\n`);
    }
  }
  const big = rows[0]!;
  const lrPerGb = median(big.lr.map((m) => m.cpuS)) / (big.input.bytes / GB);
  const ffPerGb = median(big.ff.map((m) => m.cpuS)) / (big.input.bytes / GB);
  const ratio = lrPerGb / ffPerGb;
  process.stdout.write(`\nliverec ${lrPerGb.toFixed(3)} CPU-s/GB vs ffmpeg -c copy ${ffPerGb.toFixed(3)} CPU-s/GB: ratio ${ratio.toFixed(2)} (target <= 0.50) ${ratio <= 0.5 ? 'PASS' : 'MISS'}\n`);
  if (rows[1]) {
    const rssBig = median(big.lr.map((m) => m.peakRssMiB));
    const rssSmall = median(rows[1].lr.map((m) => m.peakRssMiB));
    const d = rssBig - rssSmall;
    process.stdout.write(`liverec peak RSS ${rssBig.toFixed(1)} MiB (${big.name}) vs ${rssSmall.toFixed(1)} MiB (${rows[1].name}): +${d.toFixed(1)} MiB (target <= 16) ${d <= 16 ? 'PASS' : 'MISS'}\n`);
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'liverec-bench-flv-'));
  try {
    process.stdout.write(`Building inputs in ${dir} from ${fixture} (fixture GOPs repeated, continuous timestamps, a unique SEI per GOP)\n`);
    const big = buildRepeatedFlv(fixture, join(dir, 'big.flv'), bigMb * MB);
    const small = buildRepeatedFlv(fixture, join(dir, 'small.flv'), smallMb * MB);
    const rows = [await bench(`${bigMb}MB`, big, dir), await bench(`${smallMb}MB`, small, dir)];
    let high: Row | null = null;
    if (process.env.BENCH_FLV_HIGH) {
      const source = highBitrateSource(dir);
      high = await bench('720p', buildRepeatedFlv(source, join(dir, 'high.flv'), bigMb * MB), dir);
    }
    report(high ? [...rows, high] : rows);
    if (high) ratioLine('informational, 720p 4 Mbps source (fewer, larger tags: per-byte costs dominate)', high);
  } finally {
    if (process.env.BENCH_FLV_KEEP) process.stdout.write(`kept ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

await main();
