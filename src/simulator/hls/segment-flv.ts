// Cuts one loop of an FLV clip into HLS segments with ffmpeg -c copy: an init section and fragments (fMP4) or TS segments, concatenated.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ffmpegBin } from '../../media/ffmpeg-bin.js';

const run = promisify(execFile);
const COMMON = ['-hide_banner', '-loglevel', 'error', '-y'];

/**
 * Both cut at every keyframe; `-t seconds` (the FLV clip's loop) drops the audio frame past the loop, so video and
 * audio loop without overlap. fMP4 comes from the mp4 muxer, one fragment per GOP with audio and video samples
 * interleaved in each mdat: with each track's samples in one block (what the hls muxer writes), a client that
 * reads a large fragment as a stream has to seek back within it, and ffmpeg's 2018 HLS reader cannot. TS comes
 * from the hls muxer, its segments back to back. `out` is written under a temp name and renamed into place.
 */
export async function segmentFlv(flv: string, format: 'fmp4' | 'mpegts', seconds: number, out: string): Promise<void> {
  const tmp = `${out}.${process.pid}.${Date.now()}.tmp`;
  if (format === 'fmp4') {
    await run(ffmpegBin(), [
      ...COMMON, '-i', flv, '-t', String(seconds), '-c', 'copy',
      '-f', 'mp4', '-movflags', 'frag_keyframe+empty_moov+default_base_moof', '-frag_interleave', '1', tmp,
    ], { maxBuffer: 1 << 20 });
    await rename(tmp, out);
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'liverec-hls-gen-'));
  try {
    await run(ffmpegBin(), [
      ...COMMON, '-i', flv, '-t', String(seconds), '-c', 'copy',
      '-f', 'hls', '-hls_time', '0.9', '-hls_list_size', '0', '-hls_segment_type', 'mpegts',
      '-hls_segment_filename', join(dir, 's%d.ts'), join(dir, 'index.m3u8'),
    ], { maxBuffer: 1 << 20 });
    const segments = (await readdir(dir)).filter((f) => /^s\d+\.ts$/.test(f)).sort((a, b) => parseInt(a.slice(1)) - parseInt(b.slice(1)));
    await writeFile(tmp, Buffer.concat(await Promise.all(segments.map((f) => readFile(join(dir, f))))));
    await rename(tmp, out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
