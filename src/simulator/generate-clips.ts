// One-off generator of the simulator's committed FLV clips (real H.264 + AAC); run: npx tsx src/simulator/generate-clips.ts
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ffmpegBin } from '../media/ffmpeg-bin.js';
import { packageRoot } from '../paths.js';
import { CLIP_FILES } from './clip-files.js';


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

mkdirSync(join(packageRoot, 'src', 'simulator', 'clips'), { recursive: true });
generate(CLIP_FILES[0], '640x360', 300, 440);
generate(CLIP_FILES[1], '854x480', 450, 660);
