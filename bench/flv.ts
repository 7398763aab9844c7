// FLV repair benchmark: liverec `tool fix` vs `ffmpeg -c copy` on unique 1080p GOPs, file to file, CPU-s per GB and peak RSS.
// Run: npm run bench:flv   (env BENCH_FLV_MB=300, BENCH_FLV_SMALL_MB=30, BENCH_FLV_KBPS=12000, BENCH_FLV_RUNS=3,
// BENCH_FLV_KEEP=1 keeps the outputs; inputs are encoded once by ffmpeg and cached, see src/media/generated-media.ts)
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { closeSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatedMedia, mediaCacheDir, type MediaSpec } from '../src/media/generated-media.js';
import { FlvParser } from '../src/flv/parser.js';
import { TagType } from '../src/flv/tag.js';
import { cliEntry, packageRoot } from '../src/paths.js';
import { ffmpegBin } from './ffmpeg-bin.js';
import { freshStem } from './result-name.js';
import { type Measurement, measure } from './flv-measure.js';
import { describeMachine } from './machine.js';
import { removeStartupEnv } from './node-env.js';

const MB = 1024 * 1024;
const GB = 1e9;
const bigMb = Number(process.env.BENCH_FLV_MB ?? 300);
const smallMb = Number(process.env.BENCH_FLV_SMALL_MB ?? 30);
const kbps = Number(process.env.BENCH_FLV_KBPS ?? 12000);
const runs = Math.max(1, Number(process.env.BENCH_FLV_RUNS ?? 3));
const cli = cliEntry;

interface BuiltInput {
  path: string;
  bytes: number;
  tags: number;
  durationMs: number;
}

/**
 * 1080p25 H.264 (temporal noise over testsrc2: every frame differs, no GOP repeats, no filler) + AAC, a
 * keyframe every 2 s, long enough for `mb` MiB at `kbps` video. Encoded by ffmpeg (ultrafast) once and cached.
 */
async function uniqueInput(mb: number): Promise<BuiltInput> {
  const seconds = Math.ceil((mb * MB * 8) / ((kbps + 128) * 1000) * 1.02);
  const spec: MediaSpec = { width: 1920, height: 1080, fps: 25, videoKbps: kbps, seconds, gop: 50, preset: 'ultrafast' };
  const t0 = Date.now();
  process.stdout.write(`  input ${mb} MiB: ${seconds} s of 1080p at ${kbps} kbps (cache: ${mediaCacheDir()}) ... `);
  const path = await generatedMedia(spec);
  const bytes = statSync(path).size;
  let tags = 0;
  let durationMs = 0;
  // Counted from the file itself, in slices, so the count never holds the whole input in memory.
  const parser = new FlvParser();
  const fd = openSync(path, 'r');
  const buf = Buffer.allocUnsafe(8 << 20);
  for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0; ) {
    for (const t of parser.push(Buffer.from(buf.subarray(0, n))).tags) {
      tags++;
      if (t.type !== TagType.Script) durationMs = Math.max(durationMs, t.timestamp);
    }
  }
  closeSync(fd);
  process.stdout.write(`${(bytes / MB).toFixed(1)} MiB, ${tags} tags (${((Date.now() - t0) / 1000).toFixed(0)} s)\n`);
  return { path, bytes, tags, durationMs };
}

const execFileP = promisify(execFile);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function liverec(input: string, base: string): Promise<Measurement> {
  rmSync(`${base}.fix_p001.flv`, { force: true });
  const m = await measure(process.execPath, [cli, 'tool', 'fix', input, base]);
  if (m.code !== 0) throw new Error(`liverec tool fix failed (${m.code}): ${m.stderr}`);
  return m;
}

async function ffmpegCopy(input: string, out: string): Promise<Measurement> {
  rmSync(out, { force: true });
  const m = await measure(ffmpegBin(), ['-hide_banner', '-loglevel', 'error', '-y', '-i', input, '-c', 'copy', '-f', 'flv', out]);
  if (m.code !== 0) throw new Error(`ffmpeg failed (${m.code}): ${m.stderr}`);
  return m;
}

interface WarmPass { pass: number; userS: number; sysS: number; cpuS: number }
interface Row { name: string; input: BuiltInput; lr: Measurement[]; ff: Measurement[]; warm: WarmPass[][] }

const WARM_PASSES = 3;

/** Passes over one input in one process (bench/flv-warm.ts): the last one shows the cost after V8's warm-up. */
async function warmPasses(input: string, base: string): Promise<WarmPass[]> {
  const { stdout } = await execFileP(process.execPath, [join(packageRoot, 'dist', 'bench', 'flv-warm.js'), input, base, String(WARM_PASSES)], { maxBuffer: 1 << 20 });
  return stdout.trim().split('\n').map((l) => JSON.parse(l) as WarmPass);
}

async function bench(name: string, input: BuiltInput, dir: string, warm: boolean): Promise<Row> {
  const row: Row = { name, input, lr: [], ff: [], warm: [] };
  for (let i = 0; i < runs; i++) {
    // Alternate so both tools see the same page-cache and machine noise.
    row.lr.push(await liverec(input.path, join(dir, `${name}-liverec`)));
    row.ff.push(await ffmpegCopy(input.path, join(dir, `${name}-ffmpeg.flv`)));
    if (warm) row.warm.push(await warmPasses(input.path, join(dir, `${name}-warm`)));
  }
  const out = statSync(join(dir, `${name}-liverec.fix_p001.flv`)).size;
  process.stdout.write(`  ${name}: ${(input.bytes / MB).toFixed(1)} MiB in, liverec wrote ${(out / MB).toFixed(1)} MiB (${input.tags} tags, ${(input.durationMs / 3_600_000).toFixed(2)} h)\n`);
  return row;
}

function report(rows: Row[]): void {
  const fmt = (n: number, d = 3): string => n.toFixed(d).padStart(8);
  process.stdout.write(`\nCPU (median of ${runs} runs; user+sys of the child, from getrusage via bash's times)\n`);
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
  process.stdout.write(`\nliverec ${lrPerGb.toFixed(3)} CPU-s/GB vs ffmpeg -c copy ${ffPerGb.toFixed(3)} CPU-s/GB: ratio ${ratio.toFixed(2)} (target <= 1.00) ${ratio <= 1 ? 'PASS' : 'MISS'}\n`);
  if (rows[1]) {
    const rssBig = median(big.lr.map((m) => m.peakRssMiB));
    const rssSmall = median(rows[1].lr.map((m) => m.peakRssMiB));
    const d = rssBig - rssSmall;
    process.stdout.write(`liverec peak RSS ${rssBig.toFixed(1)} MiB (${big.name}) vs ${rssSmall.toFixed(1)} MiB (${rows[1].name}): +${d.toFixed(1)} MiB (target: flat, <= 16) ${d <= 16 ? 'PASS' : 'MISS'}\n`);
  }
  const w = warmSummary(big);
  if (w) {
    process.stdout.write(`after warm-up (pass ${WARM_PASSES} of ${WARM_PASSES} over the ${big.name} input in one process): liverec ${w.lastCpuS.toFixed(3)} CPU s (first pass ${w.firstCpuS.toFixed(3)}) vs ffmpeg ${median(big.ff.map((x) => x.cpuS)).toFixed(3)}, ratio ${w.ratio.toFixed(2)} (informational)\n`);
  }
  const m = marginal(rows);
  if (m) {
    process.stdout.write(`per-byte work without start-up (CPU between the two inputs / bytes between them): liverec ${m.liverecCpuSecondsPerGb.toFixed(3)} vs ffmpeg ${m.ffmpegCpuSecondsPerGb.toFixed(3)} CPU-s/GB, ratio ${m.ratio.toFixed(2)} (informational)\n`);
  }
}

/**
 * CPU per GB between the two inputs: (cpu big - cpu small) / (bytes big - bytes small). Start-up (process,
 * runtime, modules) is paid once per file by each tool and cancels out; what is left is the per-byte work.
 */
function marginal(rows: Row[]): { liverecCpuSecondsPerGb: number; ffmpegCpuSecondsPerGb: number; ratio: number } | null {
  const [big, small] = rows;
  if (!big || !small || big.input.bytes <= small.input.bytes) return null;
  const gb = (big.input.bytes - small.input.bytes) / GB;
  const per = (a: Measurement[], b: Measurement[]): number => (median(a.map((m) => m.cpuS)) - median(b.map((m) => m.cpuS))) / gb;
  const lr = per(big.lr, small.lr);
  const ff = per(big.ff, small.ff);
  return { liverecCpuSecondsPerGb: lr, ffmpegCpuSecondsPerGb: ff, ratio: lr / ff };
}

/** Medians of the first and last warm passes, and the last against ffmpeg's median on the same input. */
function warmSummary(row: Row): { firstCpuS: number; lastCpuS: number; ratio: number } | null {
  if (row.warm.length === 0) return null;
  const firstCpuS = median(row.warm.map((p) => p[0]!.cpuS));
  const lastCpuS = median(row.warm.map((p) => p.at(-1)!.cpuS));
  return { firstCpuS, lastCpuS, ratio: lastCpuS / median(row.ff.map((x) => x.cpuS)) };
}

/** The medians per input and tool, as written to bench/results/<date>-flv-<MB>MB.json. */
function summary(rows: Row[]): unknown[] {
  return rows.map((r) => {
    const gb = r.input.bytes / GB;
    const tool = (ms: Measurement[]) => ({
      cpuS: median(ms.map((m) => m.cpuS)), userS: median(ms.map((m) => m.userS)), sysS: median(ms.map((m) => m.sysS)),
      cpuSecondsPerGb: median(ms.map((m) => m.cpuS)) / gb, peakRssMiB: median(ms.map((m) => m.peakRssMiB)), wallS: median(ms.map((m) => m.wallS)),
      all: ms.map((m) => ({ cpuS: m.cpuS, peakRssMiB: m.peakRssMiB, wallS: m.wallS })),
    });
    const lr = tool(r.lr);
    const ff = tool(r.ff);
    return { name: r.name, input: { ...r.input, path: undefined, file: r.input.path.split('/').at(-1) }, liverec: lr, ffmpeg: ff, cpuRatio: lr.cpuS / ff.cpuS };
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'liverec-bench-flv-'));
  const removedEnv = removeStartupEnv();
  if (removedEnv.length > 0) process.stdout.write(`Environment: ${removedEnv.join(', ')} removed for both tools (Node parses the CA bundle at every start; BENCH_KEEP_NODE_ENV=1 keeps it)\n`);
  try {
    process.stdout.write('Inputs: unique 1080p25 H.264 GOPs + AAC, encoded by ffmpeg (no repeated GOPs, no filler); the first run encodes them\n');
    const big = await uniqueInput(bigMb);
    const small = await uniqueInput(smallMb);
    const rows = [await bench(`${bigMb}MB`, big, dir, true), await bench(`${smallMb}MB`, small, dir, false)];
    report(rows);
    const outDir = process.env.BENCH_FLV_OUT ?? join(packageRoot, 'bench', 'results');
    mkdirSync(outDir, { recursive: true });
    const file = `${freshStem(join(outDir, `${new Date().toISOString().slice(0, 10)}-flv-${bigMb}MB`))}.json`;
    const command = `BENCH_FLV_MB=${bigMb} BENCH_FLV_SMALL_MB=${smallMb} BENCH_FLV_KBPS=${kbps} BENCH_FLV_RUNS=${runs} npm run bench:flv`;
    writeFileSync(file, `${JSON.stringify({ benchmark: 'liverec tool fix vs ffmpeg -c copy', date: new Date().toISOString(), command, machine: describeMachine(), removedEnv, runs, rows: summary(rows), marginal: marginal(rows), warm: { passes: WARM_PASSES, ...warmSummary(rows[0]!), all: rows[0]!.warm } }, null, 2)}\n`);
    process.stdout.write(`results: ${file}\n`);
  } finally {
    if (process.env.BENCH_FLV_KEEP) process.stdout.write(`kept ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

await main();
