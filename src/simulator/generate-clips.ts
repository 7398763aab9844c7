// One-off generator of the simulator's committed FLV clips (real H.264 or HEVC + AAC); run: npx tsx src/simulator/generate-clips.ts [hevc]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ffmpegBin } from '../media/ffmpeg-bin.js';
import { packageRoot } from '../paths.js';
import { CLIP_FILES, HEVC_CLIP_FILES } from './clip-files.js';
import { hevcFlv } from './hevc-clip.js';


// 3.84 s = 96 frames at 25 fps = 180 AAC frames at 48 kHz: video and audio loop without drift.
const DURATION = '3.84';

function generate(file: string, size: string, videoKbps: number, tone: number): void {
  const out = join(packageRoot, 'src', 'simulator', 'clips', file);
  execFileSync(
    ffmpegBin(),
    [
      '-hide_banner', '-loglevel', 'error', '-y',
      '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25`,
      '-f', 'lavfi', '-i', `sine=frequency=${tone}:sample_rate=48000`,
      '-t', DURATION,
      '-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'high', '-pix_fmt', 'yuv420p',
      // A keyframe every 24 frames (0.96 s), no scene-cut keyframes: every loop starts on an IDR frame.
      '-g', '24', '-keyint_min', '24', '-sc_threshold', '0', '-bf', '0',
      '-b:v', `${videoKbps}k`, '-maxrate', `${videoKbps * 1.2}k`, '-bufsize', `${videoKbps}k`,
      '-c:a', 'aac', '-b:a', '64k', '-ac', '2', '-ar', '48000',
      '-f', 'flv', out,
    ],
    { stdio: 'inherit' },
  );
  process.stdout.write(`wrote ${out}\n`);
}

/**
 * HEVC with libx265 as Annex-B (this ffmpeg's FLV muxer has no HEVC), wrapped into codec-12 FLV by our own
 * code, with AAC from an audio-only FLV. Closed GOPs of 24 frames, no B-frames, VUI timing (frame rate).
 */
function generateHevc(file: string, size: string, videoKbps: number, tone: number): void {
  const dir = mkdtempSync(join(tmpdir(), 'liverec-clip-'));
  try {
    const base = ['-hide_banner', '-loglevel', 'error', '-y'];
    execFileSync(ffmpegBin(), [
      ...base, '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=25`, '-t', DURATION,
      '-c:v', 'libx265', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-b:v', `${videoKbps}k`,
      '-x265-params', 'keyint=24:min-keyint=24:scenecut=0:bframes=0:open-gop=0:repeat-headers=1:info=0:log-level=error',
      '-f', 'hevc', join(dir, 'v.hevc'),
    ], { stdio: 'inherit' });
    execFileSync(ffmpegBin(), [
      ...base, '-f', 'lavfi', '-i', `sine=frequency=${tone}:sample_rate=48000`, '-t', DURATION,
      '-c:a', 'aac', '-b:a', '64k', '-ac', '2', '-ar', '48000', '-f', 'flv', join(dir, 'a.flv'),
    ], { stdio: 'inherit' });
    const out = join(packageRoot, 'src', 'simulator', 'clips', file);
    writeFileSync(out, hevcFlv(readFileSync(join(dir, 'v.hevc')), readFileSync(join(dir, 'a.flv')), 40));
    process.stdout.write(`wrote ${out}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

mkdirSync(join(packageRoot, 'src', 'simulator', 'clips'), { recursive: true });
if (process.argv[2] !== 'hevc') {
  generate(CLIP_FILES[0], '640x360', 300, 440);
  generate(CLIP_FILES[1], '854x480', 450, 660);
}
generateHevc(HEVC_CLIP_FILES[0], '640x360', 200, 440);
generateHevc(HEVC_CLIP_FILES[1], '854x480', 300, 660);
