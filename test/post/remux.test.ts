// Native MP4 remux: the simulator's FLV (H.264, HEVC, AV1), TS and fMP4 media become faststart MP4s that ffprobe reads
// with the same streams, the same sample counts (±1) and the same duration (±50 ms); bad input is refused, not crashed on.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { TsScanner } from '../../src/hls/ts-packets.js';
import { ffmpegBin } from '../../src/media/ffmpeg-bin.js';
import { av1TsClip } from '../../src/simulator/hls/av1-ts-clip.js';
import { readMp4Summary } from '../../src/post/remux/mp4-summary.js';
import { remuxToMp4 } from '../../src/post/remux/remux.js';
import { verifyRemux, verifySamples } from '../../src/post/remux/verify.js';
import { clip, FFPROBE, longFlv, mediaFacts, type MediaFacts } from './media.js';

const dir = mkdtempSync(join(tmpdir(), 'liverec-remux-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** ffprobe of this build crashes on MPEG-TS input, so a TS source is measured with liverec's own TS scanner. */
function tsFacts(file: string): MediaFacts {
  const s = new TsScanner();
  s.push(readFileSync(file));
  const frames = s.videoFrames;
  return {
    streams: [{ kind: 'video', packets: frames }, { kind: 'audio', packets: s.audioFrames }],
    videoDuration: (((s.video.last! - s.video.first!) / 90000) * frames) / (frames - 1),
  };
}

function expectSameMedia(mp4: string, source: MediaFacts, out = mediaFacts(mp4)): void {
  expect(out.streams.map((s) => s.kind)).toEqual(source.streams.map((s) => s.kind));
  out.streams.forEach((s, i) => expect(Math.abs(s.packets - source.streams[i]!.packets), `${s.kind} samples`).toBeLessThanOrEqual(1));
  expect(Math.abs(out.videoDuration - source.videoDuration)).toBeLessThan(0.05);
  expect(readMp4Summary(mp4)?.faststart).toBe(true);
}

describe('remux to MP4', () => {
  for (const name of ['clip-360p.flv', 'clip-360p-hevc.flv', 'clip-360p-av1.flv', 'clip-360p.fmp4', 'clip-360p-hevc.fmp4']) {
    it(`${name} → MP4 with the same streams, samples and duration`, () => {
      const out = join(dir, `${name}.mp4`);
      const report = remuxToMp4(clip(name), out);
      expect(report.tracks.map((t) => t.handler)).toEqual(['vide', 'soun']);
      expectSameMedia(out, mediaFacts(clip(name)));
      // Every sample decodes: the bytes the tables point at are whole frames (an AV1 frame read 3 bytes late did not).
      const decode = spawnSync(ffmpegBin(), ['-v', 'error', '-i', out, '-f', 'null', '-'], { encoding: 'utf8' });
      expect(decode.status).toBe(0);
      expect(decode.stderr).toBe('');
    });
  }

  it('clip-360p.mpegts → MP4 with the same streams, samples and duration', () => {
    const out = join(dir, 'ts.mp4');
    const report = remuxToMp4(clip('clip-360p.mpegts'), out);
    expect(report.format).toBe('ts');
    expectSameMedia(out, tsFacts(clip('clip-360p.mpegts')));
  });

  it('AV1 over TS (AOM carriage, the simulator\'s ts/av1 stream) → MP4 with an av01 track that libaom decodes', async () => {
    const src = join(dir, 'av1.ts');
    writeFileSync(src, Buffer.concat(av1TsClip().segments.map((s) => s.bytes)));
    const out = join(dir, 'av1-ts.mp4');
    const report = remuxToMp4(src, out);
    // Its audio PES (one ADTS frame each) complete before the first video PES does: the audio track comes first.
    expect(report.tracks.map((t) => t.handler).sort()).toEqual(['soun', 'vide']);
    const [got, want] = [mediaFacts(out), tsFacts(src)].map((f) => ({ ...f, streams: [...f.streams].sort((a, b) => a.kind.localeCompare(b.kind)) }));
    expectSameMedia(out, want!, got);
    const { stderr } = await new Promise<{ stderr: string }>((resolve) => {
      execFile(ffmpegBin(), ['-v', 'error', '-c:v', 'libaom-av1', '-i', out, '-f', 'null', '-'], (_e, _o, stderr) => resolve({ stderr }));
    });
    expect(stderr.trim()).toBe('');
    const moov = readFileSync(out);
    expect(moov.includes(Buffer.from('av01')) && moov.includes(Buffer.from('av1C'))).toBe(true);
  });

  it('a long FLV (80 loops: its tables spill to the spool file) keeps every sample, its duration and its keyframes', () => {
    const src = join(dir, 'long.flv');
    longFlv('clip-360p.flv', 80, src);
    const out = join(dir, 'long.mp4');
    const report = remuxToMp4(src, out);
    expect(report.tracks[0]!.samples + report.tracks[1]!.samples).toBeGreaterThan(20000);
    expectSameMedia(out, mediaFacts(src));
    expect(mediaFacts(out).videoDuration).toBeGreaterThan(300);
    expect(verifyRemux(report, readMp4Summary(out))).toBeNull();
    expect(verifySamples(report, readMp4Summary(out)!, out)).toBeNull();
    expect(existsSync(`${out}.tables`)).toBe(false);
    // Seeking goes through stss: ffprobe lands on the keyframe at or before 200 s (the clip has one every 0.96 s).
    const csv = execFileSync(FFPROBE, ['-v', 'error', '-select_streams', 'v:0', '-read_intervals', '200%+#1', '-show_entries', 'packet=pts_time,flags',
      '-of', 'csv=p=0', out], { encoding: 'utf8' }).trim().split('\n')[0]!.split(',');
    expect(Number(csv[0])).toBeGreaterThan(199);
    expect(Number(csv[0])).toBeLessThanOrEqual(200.001);
    expect(csv[1]).toMatch(/^K/);
  });

  it('an FLV with B-frames keeps every frame\'s decode and presentation time (ctts)', () => {
    const src = join(dir, 'bframes.flv');
    execFileSync(ffmpegBin(), ['-v', 'error', '-y', '-i', clip('clip-360p.flv'), '-c:v', 'libx264', '-preset', 'veryfast', '-bf', '2', '-g', '24', '-c:a', 'copy', src]);
    const out = join(dir, 'bframes.mp4');
    remuxToMp4(src, out);
    const times = (f: string): string[] => execFileSync(FFPROBE, ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,dts_time', '-of', 'csv=p=0', f],
      { encoding: 'utf8' }).trim().split('\n');
    const source = times(src);
    expect(source.some((l) => { const [pts, dts] = l.split(','); return pts !== dts; })).toBe(true);
    expect(times(out)).toEqual(source);
  });

  it('the verify step refuses an MP4 whose mdat is short of what was written, or whose index points off a sample', () => {
    const out = join(dir, 'short.mp4');
    const report = remuxToMp4(clip('clip-360p.flv'), out);
    const whole = readFileSync(out);
    expect(verifyRemux(report, readMp4Summary(out))).toBeNull();
    expect(verifySamples(report, readMp4Summary(out)!, out)).toBeNull();
    // One byte of the audio track's last chunk changed: counts, durations and sizes still agree.
    const audioLast = readMp4Summary(out)!.tracks[1]!.chunkOffsets!.last;
    const changed = Buffer.from(whole);
    changed[audioLast + 1] ^= 0xff;
    writeFileSync(out, changed);
    expect(verifyRemux(report, readMp4Summary(out))).toBeNull();
    expect(verifySamples(report, readMp4Summary(out)!, out)).toMatch(/track 2: the last chunk's first sample differs/);
    writeFileSync(out, whole.subarray(0, whole.length - 1000));
    expect(verifyRemux(report, readMp4Summary(out))).not.toBeNull();
  });

  it('refuses a file that is no media, and one without samples', () => {
    const junk = join(dir, 'junk.flv');
    writeFileSync(junk, 'hello, not a video');
    expect(() => remuxToMp4(junk, join(dir, 'junk.mp4'))).toThrow(/not FLV, MPEG-TS or MP4/);
    const empty = join(dir, 'empty.flv');
    writeFileSync(empty, Buffer.from('464c5601050000000900000000', 'hex'));
    expect(() => remuxToMp4(empty, join(dir, 'empty.mp4'))).toThrow(/no samples/);
  });
});
