// One-off generator of the simulator's committed HLS clips (fMP4 and TS) from the committed FLV clips, with ffmpeg -c copy.
// Run: npx tsx src/simulator/hls/generate-hls-clips.ts
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ffmpegBin } from '../../media/ffmpeg-bin.js';
import { clipPath } from '../clips.js';
import { CLIP_FILES } from '../clip-files.js';
import { HEVC_FMP4_CLIP, HEVC_TS_CLIP } from './hls-clips.js';
import { segmentFlv } from './segment-flv.js';

/** Each FLV clip is one 3.84 s loop of four 0.96 s GOPs: `<clip>.fmp4` = init + 4 fragments, `<clip>.mpegts` = 4 TS segments. */
async function generate(flv: string, format: 'fmp4' | 'mpegts'): Promise<void> {
  const out = clipPath(flv.replace(/\.flv$/, format === 'fmp4' ? '.fmp4' : '.mpegts'));
  await segmentFlv(clipPath(flv), format, 3.84, out);
  process.stdout.write(`wrote ${out}\n`);
}

/** HEVC over fMP4 (libx265, the FLV clip's AAC copied): what `_prohevc` fMP4 URLs serve. */
function generateHevc(): void {
  const dir = mkdtempSync(join(tmpdir(), 'liverec-hls-gen-'));
  try {
    execFileSync(ffmpegBin(), [
      '-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25', '-i', clipPath(CLIP_FILES[0]),
      '-map', '0:v', '-map', '1:a', '-t', '3.84', '-c:v', 'libx265', '-preset', 'veryfast', '-b:v', '300k', '-pix_fmt', 'yuv420p',
      '-x265-params', 'keyint=24:min-keyint=24:scenecut=0:bframes=0:log-level=error', '-tag:v', 'hvc1', '-c:a', 'copy',
      '-f', 'hls', '-hls_time', '0.9', '-hls_list_size', '0', '-hls_segment_type', 'fmp4',
      '-hls_segment_filename', join(dir, 's%d.m4s'), join(dir, 'index.m3u8'),
    ], { stdio: 'inherit' });
    const parts = ['init.mp4', 's0.m4s', 's1.m4s', 's2.m4s', 's3.m4s'].map((f) => readFileSync(join(dir, f)));
    writeFileSync(clipPath(HEVC_FMP4_CLIP), Buffer.concat(parts));
    process.stdout.write(`wrote ${clipPath(HEVC_FMP4_CLIP)}\n`);
    // The same HEVC as TS segments (Annex B), for `_prohevc` TS streams.
    execFileSync(ffmpegBin(), [
      '-hide_banner', '-loglevel', 'error', '-y', '-i', clipPath(HEVC_FMP4_CLIP), '-c', 'copy', '-bsf:v', 'hevc_mp4toannexb',
      '-f', 'hls', '-hls_time', '0.9', '-hls_list_size', '0', '-hls_segment_type', 'mpegts',
      '-hls_segment_filename', join(dir, 't%d.ts'), join(dir, 'ts.m3u8'),
    ], { stdio: 'inherit' });
    writeFileSync(clipPath(HEVC_TS_CLIP), Buffer.concat(['t0.ts', 't1.ts', 't2.ts', 't3.ts'].map((f) => readFileSync(join(dir, f)))));
    process.stdout.write(`wrote ${clipPath(HEVC_TS_CLIP)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

generateHevc();
for (const flv of CLIP_FILES) {
  await generate(flv, 'fmp4');
  await generate(flv, 'mpegts');
}
