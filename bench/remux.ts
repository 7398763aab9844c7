// Native MP4 remux against `ffmpeg -c copy -movflags +faststart` on the same long FLVs: CPU seconds and peak RSS of each.
// Run: node dist/bench/remux.js [--loops 8,160,1000] (each loop is 3.84 s of the simulator's 360p clip, ~184 KB).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ffmpegBin } from './ffmpeg-bin.js';
import { longFlv } from './long-flv.js';

interface Run { cpuS: number; maxRssKiB: number }

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

const arg = process.argv.indexOf('--loops');
const loops = (arg > 0 ? process.argv[arg + 1]! : '8,160').split(',').map(Number).filter((n) => n > 0);
const dir = mkdtempSync(join(tmpdir(), 'liverec-bench-remux-'));
try {
  console.log('input MB | liverec CPU s | ffmpeg CPU s | CPU ratio | liverec peak RSS MB | ffmpeg peak RSS MB');
  for (const n of loops) {
    const input = join(dir, `in-${n}.flv`);
    longFlv('clip-360p.flv', n, input);
    const mb = statSync(input).size / 1e6;
    const a = liverec(input, join(dir, 'liverec.mp4'));
    const b = ffmpeg(input, join(dir, 'ffmpeg.mp4'));
    console.log([mb.toFixed(1), a.cpuS.toFixed(2), b.cpuS.toFixed(2), (a.cpuS / b.cpuS).toFixed(2), (a.maxRssKiB / 1024).toFixed(1), (b.maxRssKiB / 1024).toFixed(1)].join(' | '));
    rmSync(input);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
