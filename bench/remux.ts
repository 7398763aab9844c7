// Native MP4 remux against `ffmpeg -c copy -movflags +faststart` on the same long FLVs: CPU seconds and peak RSS of each.
// Run: npm run bench:remux -- [--mb 30,300,1000,2000] [--rounds 15,3,2,1] (inputs are back-to-back loops of the simulator's
// 360p H.264 + AAC clip, 3.84 s and ~184 KB a loop, made in the temp directory and deleted after).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readMp4Summary } from '../src/post/remux/mp4-summary.js';
import { ffmpegBin } from './ffmpeg-bin.js';
import { longFlv, simulatorClip } from './long-flv.js';
import { describeMachine, machineLine } from './machine.js';

interface Run { cpuS: number; maxRssKiB: number; remuxS?: number; verifyS?: number }

function liverec(input: string, output: string): Run {
  // Built (dist/bench) or from source through tsx: the child is the sibling of this file either way.
  const fromSource = import.meta.url.endsWith('.ts');
  const child = fileURLToPath(new URL(fromSource ? './remux-child.ts' : './remux-child.js', import.meta.url));
  const out = execFileSync(process.execPath, [...(fromSource ? ['--import', 'tsx'] : []), child, input, output], { encoding: 'utf8' });
  return JSON.parse(out) as Run;
}

function ffmpeg(input: string, output: string): Run {
  const r = spawnSync(ffmpegBin(), ['-hide_banner', '-nostats', '-loglevel', 'info', '-benchmark', '-y', '-i', input, '-c', 'copy', '-movflags', '+faststart', output], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
  const utime = Number(/utime=([\d.]+)s/.exec(r.stderr)?.[1]);
  const stime = Number(/stime=([\d.]+)s/.exec(r.stderr)?.[1]);
  const rss = Number(/maxrss=(\d+)k[iI]?B/.exec(r.stderr)?.[1]);
  return { cpuS: utime + stime, maxRssKiB: rss };
}

const opt = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const sizes = opt('--mb', '30,300').split(',').map(Number).filter((n) => n > 0);
/** Rounds for each size (the last one repeats): `3` or `3,3,1,1`. */
const roundList = opt('--rounds', '1').split(',').map((n) => Math.max(1, Number(n) || 1));
const roundsFor = (i: number): number => roundList[Math.min(i, roundList.length - 1)]!;
const loopBytes = statSync(simulatorClip('clip-360p.flv')).size;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const dir = mkdtempSync(join(tmpdir(), 'liverec-bench-remux-'));
console.log(machineLine(describeMachine()));
console.log(`${sizes.map((mb, i) => `${mb} MB × ${roundsFor(i)}`).join(', ')} round(s), liverec and ffmpeg alternating; medians. liverec CPU = remux + verify in the job's process (Node start-up apart); process = the whole child, Node start-up included.`);
console.log('input MB | samples | liverec CPU s (remux + verify) | process CPU s | ffmpeg CPU s | ratio | ratio of minima | ratio (process) | liverec peak RSS MB | ffmpeg peak RSS MB | MP4 MB liverec / ffmpeg');
try {
  for (const [si, mb] of sizes.entries()) {
    const rounds = roundsFor(si);
    const input = join(dir, `in-${mb}.flv`);
    longFlv('clip-360p.flv', Math.max(1, Math.round((mb * 1e6) / loopBytes)), input);
    const ours: Run[] = [];
    const theirs: Run[] = [];
    for (let i = 0; i < rounds; i++) {
      // Each writes a new file, as the job does (its temp file): replacing one would add the old file's truncation.
      rmSync(join(dir, 'liverec.mp4'), { force: true });
      ours.push(liverec(input, join(dir, 'liverec.mp4')));
      rmSync(join(dir, 'ffmpeg.mp4'), { force: true });
      theirs.push(ffmpeg(input, join(dir, 'ffmpeg.mp4')));
    }
    // The two MP4s must hold the same samples, or the comparison means nothing.
    const a = readMp4Summary(join(dir, 'liverec.mp4'))!.tracks.map((t) => t.samples);
    const b = readMp4Summary(join(dir, 'ffmpeg.mp4'))!.tracks.map((t) => t.samples);
    if (a.join() !== b.join()) throw new Error(`sample counts differ: liverec ${a.join('+')}, ffmpeg ${b.join('+')}`);
    const job = median(ours.map((r) => r.remuxS! + r.verifyS!));
    // The least CPU of the rounds: what other work on a shared machine adds (cache misses, reclaim) only ever adds.
    const best = Math.min(...ours.map((r) => r.remuxS! + r.verifyS!)) / Math.min(...theirs.map((r) => r.cpuS));
    const proc = median(ours.map((r) => r.cpuS));
    const ff = median(theirs.map((r) => r.cpuS));
    const verify = median(ours.map((r) => r.verifyS!));
    console.log([(statSync(input).size / 1e6).toFixed(1), a.join('+'), `${job.toFixed(3)} (verify ${verify.toFixed(3)})`, proc.toFixed(3), ff.toFixed(3),
      (job / ff).toFixed(2), best.toFixed(2), (proc / ff).toFixed(2), (Math.max(...ours.map((r) => r.maxRssKiB)) / 1024).toFixed(1),
      (Math.max(...theirs.map((r) => r.maxRssKiB)) / 1024).toFixed(1),
      `${(statSync(join(dir, 'liverec.mp4')).size / 1e6).toFixed(1)} / ${(statSync(join(dir, 'ffmpeg.mp4')).size / 1e6).toFixed(1)}`].join(' | '));
    rmSync(input);
    rmSync(join(dir, 'liverec.mp4'));
    rmSync(join(dir, 'ffmpeg.mp4'));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
