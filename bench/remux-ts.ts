// Peak memory of the native remux on a long MPEG-TS (the one format whose samples are rebuilt, PES by PES): the
// figure behind "memory flat in the input's length" (issue 46). Run: npm run bench:remux-ts -- [--mb 1000]
// The input is the simulator's 360p H.264 + AAC clip looped to the size (bench/long-flv.ts), copied to MPEG-TS by
// ffmpeg (-c copy), made in the temp directory and deleted after. The remux and its verify step run in a fresh
// Node process (bench/remux-child.ts), as on a pool thread; its peak RSS is the figure.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ffmpegBin } from './ffmpeg-bin.js';
import { longFlv, simulatorClip } from './long-flv.js';
import { describeMachine, machineLine } from './machine.js';

const i = process.argv.indexOf('--mb');
const mb = i > 0 ? Number(process.argv[i + 1]) : 1000;
const dir = mkdtempSync(join(tmpdir(), 'liverec-bench-remux-ts-'));
try {
  console.log(machineLine(describeMachine()));
  const flv = join(dir, 'in.flv');
  const ts = join(dir, 'in.ts');
  // TS costs ~10% more bytes than FLV for the same media: the FLV is made that much smaller.
  longFlv('clip-360p.flv', Math.max(1, Math.round((mb * 1e6) / 1.1 / statSync(simulatorClip('clip-360p.flv')).size)), flv);
  execFileSync(ffmpegBin(), ['-v', 'error', '-y', '-i', flv, '-c', 'copy', '-f', 'mpegts', ts]);
  rmSync(flv);
  const fromSource = import.meta.url.endsWith('.ts');
  const child = fileURLToPath(new URL(fromSource ? './remux-child.ts' : './remux-child.js', import.meta.url));
  const out = execFileSync(process.execPath, [...(fromSource ? ['--import', 'tsx'] : []), child, ts, join(dir, 'out.mp4')], { encoding: 'utf8', maxBuffer: 1 << 20 });
  const r = JSON.parse(out) as { remuxS: number; verifyS: number; crossCheckS: number; skippedBytes: number; cpuS: number; maxRssKiB: number; tracks: { handler: string; samples: number }[] };
  console.log('input MB | samples | skipped bytes | remux CPU s | verify CPU s | independent reader CPU s | process CPU s | peak RSS MB | MP4 MB');
  console.log([(statSync(ts).size / 1e6).toFixed(1), r.tracks.map((t) => t.samples).join('+'), r.skippedBytes, r.remuxS.toFixed(2), r.verifyS.toFixed(2), r.crossCheckS.toFixed(2), r.cpuS.toFixed(2),
    (r.maxRssKiB / 1024).toFixed(1), (statSync(join(dir, 'out.mp4')).size / 1e6).toFixed(1)].join(' | '));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
