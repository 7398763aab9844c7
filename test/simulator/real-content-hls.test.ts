// HLS rooms serve the room's own content clip, cut into segments once (cached), and ffmpeg reads them live.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boxes } from '../../src/hls/mp4-boxes.js';
import { clipPath, loadClipFile } from '../../src/simulator/clips.js';
import { attachHls } from '../../src/simulator/hls/real-hls-clips.js';
import { Simulator } from '../../src/simulator/simulator.js';
import { ffmpegBin } from '../support/media-tools.js';

const dir = mkdtempSync(join(tmpdir(), 'liverec-hls-content-'));
const saved = process.env.LIVEREC_MEDIA_CACHE;
beforeAll(() => void (process.env.LIVEREC_MEDIA_CACHE = join(dir, 'cache')));
afterAll(() => {
  if (saved === undefined) delete process.env.LIVEREC_MEDIA_CACHE;
  else process.env.LIVEREC_MEDIA_CACHE = saved;
  rmSync(dir, { recursive: true, force: true });
});

describe('simulator HLS of the content clip', () => {
  it('cuts one loop per format at every keyframe, interleaves fMP4 samples, and serves it to ffmpeg', async () => {
    const clip = loadClipFile(clipPath('clip-480p.flv'));
    await attachHls([clip], ['flv', 'fmp4', 'ts']);
    const fmp4 = clip.hls!.fmp4!;
    const ts = clip.hls!.ts!;
    expect(fmp4.segments).toHaveLength(4);
    expect(ts.segments).toHaveLength(4);
    expect(fmp4.periodSec).toBeCloseTo(clip.periodMs / 1000, 3);
    expect(fmp4.segments.reduce((s, g) => s + g.duration, 0)).toBeCloseTo(clip.periodMs / 1000, 1);
    // Interleaved: each fragment's two tracks come in many short runs, not one block per track.
    const seg = fmp4.segments[0]!.bytes;
    const moof = boxes(seg).find((b) => b.type === 'moof')!;
    const trafs = boxes(seg, moof.body, moof.end).filter((b) => b.type === 'traf');
    expect(trafs).toHaveLength(2);
    for (const traf of trafs) expect(boxes(seg, traf.body, traf.end).filter((b) => b.type === 'trun').length).toBeGreaterThan(4);
    // Cut once: a second attach reads the cached files.
    const cached = statSync(join(dir, 'cache')).mtimeMs;
    await attachHls([loadClipFile(clipPath('clip-480p.flv'))], ['fmp4']);
    expect(statSync(join(dir, 'cache')).mtimeMs).toBe(cached);

    const sim = new Simulator({ content: [clip] });
    const running = await sim.start();
    try {
      const room = sim.createRoom({ roomId: 31001, live: true, formats: ['fmp4'], bitrateKbps: clip.kbps, liveStream: false });
      const playlistUrl = `${running.url}/live-bvc/1/live_31001_${room.session}/index.m3u8`;
      const text = await (await fetch(playlistUrl)).text();
      expect(text).toMatch(/#EXT-X-TARGETDURATION:1\n/);
      const out = join(dir, 'ffmpeg.mp4');
      await promisify(execFile)(ffmpegBin(), ['-hide_banner', '-v', 'error', '-i', playlistUrl, '-t', '2', '-c', 'copy', '-f', 'mp4', '-y', out], { timeout: 60_000 });
      expect(statSync(out).size).toBeGreaterThan(20_000);
      const served = room.counters.hlsBytesServed;
      expect(served).toBeGreaterThan(statSync(out).size / 2);
      expect(room.counters.hlsSegmentsServed).toBeGreaterThan(0);
    } finally {
      await running.close();
    }
  }, 120_000);
});
