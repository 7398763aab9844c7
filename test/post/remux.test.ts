// Native MP4 remux: the simulator's FLV (H.264, HEVC, AV1), TS and fMP4 media become faststart MP4s that ffprobe reads
// with the same streams, the same sample counts (±1) and the same duration (±50 ms); bad input is refused, not crashed on.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { TsScanner } from '../../src/hls/ts-packets.js';
import { av1TsClip } from '../../src/simulator/hls/av1-ts-clip.js';
import { ffmpegBin } from '../support/media-tools.js';
import { readMp4Summary } from '../../src/post/remux/mp4-summary.js';
import { remuxToMp4 } from '../../src/post/remux/remux.js';
import { clip, longFlv, mediaFacts, type MediaFacts } from './media.js';

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

  it('a long FLV (20 loops) keeps every sample and its duration', () => {
    const src = join(dir, 'long.flv');
    longFlv('clip-360p.flv', 20, src);
    const out = join(dir, 'long.mp4');
    remuxToMp4(src, out);
    expectSameMedia(out, mediaFacts(src));
    expect(mediaFacts(out).videoDuration).toBeGreaterThan(76);
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
