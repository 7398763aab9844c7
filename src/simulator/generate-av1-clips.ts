// One-off generator of the simulator's committed AV1 clips (fMP4 and Enhanced FLV); run: npx tsx src/simulator/generate-av1-clips.ts
// The ffmpeg devDependency (a 2018 static build) has libaom-av1 (experimental); it writes an empty av1C, which av1-clip.ts rebuilds.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ffmpegBin } from '../media/ffmpeg-bin.js';
import { av1Flv, av1Fmp4 } from './av1-clip.js';
import { CLIP_FILES } from './clip-files.js';
import { clipPath } from './clips.js';
import { AV1_CLIPS } from './av1-clips.js';

const dir = mkdtempSync(join(tmpdir(), 'liverec-av1-'));
try {
  const encoded = join(dir, 'av1.mp4');
  // 3.84 s at 25 fps with a keyframe every 24 frames, the AAC of the committed 360p clip: the same loop as every other clip.
  execFileSync(ffmpegBin(), [
    '-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25', '-i', clipPath(CLIP_FILES[0]),
    '-map', '0:v', '-map', '1:a', '-t', '3.84', '-c:v', 'libaom-av1', '-strict', 'experimental', '-cpu-used', '8', '-b:v', '200k',
    '-g', '24', '-keyint_min', '24', '-pix_fmt', 'yuv420p', '-c:a', 'copy',
    '-f', 'mp4', '-movflags', 'empty_moov+default_base_moof+frag_keyframe', encoded,
  ], { stdio: 'inherit' });
  const av1 = av1Fmp4(readFileSync(encoded));
  writeFileSync(clipPath(AV1_CLIPS.fmp4), av1.fmp4);
  writeFileSync(clipPath(AV1_CLIPS.flv), av1Flv(av1, readFileSync(clipPath(CLIP_FILES[0])), 640, 360));
  process.stdout.write(`wrote ${clipPath(AV1_CLIPS.fmp4)} and ${clipPath(AV1_CLIPS.flv)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
