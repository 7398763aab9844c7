// Unit checks of the HLS parts: playlist parsing, RecordingProtocol tokens, fMP4 boxes, TS timestamps, segment writers.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRecordingProtocol, parseRecordingProtocol } from '../../src/bilibili/recording-protocol.js';
import { Fmp4Writer } from '../../src/hls/fmp4-writer.js';
import { boxes, parseInit } from '../../src/hls/mp4-boxes.js';
import { olderShareInit } from '../../src/hls/backfill/reach-back.js';
import { type MediaPlaylist, parsePlaylist, segmentCheck } from '../../src/hls/playlist.js';
import { readTimestamp, TsScanner, writeTimestamp } from '../../src/hls/ts-packets.js';
import type { RecordingStatsDelta } from '../../src/flv/rules/stats.js';
import { hlsClips } from '../../src/simulator/hls/hls-clips.js';
import { decode } from './helpers.js';

describe('HLS parts', () => {
  it('parses media playlists: sequence, maps, discontinuities, Bilibili titles; counts anomalies', () => {
    const p = parsePlaylist('#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:41\n#EXT-X-MAP:URI="h1.m4s"\n#EXTINF:1.0,ab|ff\n41.m4s\n' +
      '#EXT-X-DISCONTINUITY\n#EXT-X-MAP:URI="h2.m4s"\n#EXTINF:0.5,\n42.m4s\nstray.m4s\n#EXTINF:x,\n44.m4s\n');
    if (p.kind !== 'media') throw new Error('media expected');
    expect(p.targetDuration).toBe(1);
    expect(p.segments.map((s) => [s.seq, s.map, s.discontinuity])).toEqual([[41, 'h1.m4s', false], [42, 'h2.m4s', true], [43, 'h2.m4s', false], [44, 'h2.m4s', false]]);
    expect(p.anomalies).toBe(2);
    expect(segmentCheck('ab|ff')).toEqual({ size: 0xab, crc32: 0xff });
    expect(segmentCheck('live')).toBeNull();
    expect(parsePlaylist('#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=5,CODECS="a,b"\nlow.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=9\nhigh.m3u8')).toEqual({
      kind: 'master', steering: null, variants: [
        { uri: 'low.m3u8', bandwidth: 5, qn: 0, codecs: 'a,b', display: '', resolution: '', pathway: '' },
        { uri: 'high.m3u8', bandwidth: 9, qn: 0, codecs: '', display: '', resolution: '', pathway: '' },
      ],
    });
    expect(() => parsePlaylist('<html>')).toThrow(/EXTM3U/);
  });

  it('numbers discontinuities (RFC 8216 §4.3.3.3); segments older than the window share its init only before any', () => {
    const list = (text: string): MediaPlaylist => parsePlaylist(`#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:7\n${text}`) as MediaPlaylist;
    const plain = list('#EXT-X-MAP:URI="h1.m4s"\n#EXTINF:1,\n7.m4s\n#EXT-X-DISCONTINUITY\n#EXT-X-MAP:URI="h2.m4s"\n#EXTINF:1,\n8.m4s\n');
    expect(plain.segments.map((s) => s.discontinuitySeq)).toEqual([0, 1]);
    expect(olderShareInit(plain.segments[0]!)).toBe(true);
    const atHead = list('#EXT-X-DISCONTINUITY\n#EXT-X-MAP:URI="h2.m4s"\n#EXTINF:1,\n7.m4s\n');
    expect(olderShareInit(atHead.segments[0]!)).toBe(false);
    const counted = list('#EXT-X-DISCONTINUITY-SEQUENCE:2\n#EXT-X-MAP:URI="h3.m4s"\n#EXTINF:1,\n7.m4s\n#EXT-X-DISCONTINUITY\n#EXTINF:1,\n8.m4s\n');
    expect(counted.segments.map((s) => s.discontinuitySeq)).toEqual([2, 3]);
    expect(olderShareInit(counted.segments[0]!)).toBe(false);
  });

  it('reads RecordingProtocol lists in order; unknown tokens are named', () => {
    expect(parseRecordingProtocol('hls-ts, flv，hls-fmp4')).toEqual(['ts', 'flv', 'fmp4']);
    expect(parseRecordingProtocol('')).toEqual(['flv', 'fmp4', 'ts']);
    expect(parseRecordingProtocol(null)).toEqual(['flv', 'fmp4', 'ts']);
    expect(checkRecordingProtocol('flv,rtmp')).toMatch(/rtmp/);
    expect(checkRecordingProtocol('flv,hls-fmp4')).toBeNull();
  });

  it('reads the init section of the simulator clip (tracks, codecs, timescales, size)', () => {
    const [clip] = hlsClips('fmp4');
    const init = parseInit(clip!.init!);
    expect(init?.tracks.map((t) => [t.handler, t.codec, t.timescale, t.width, t.height])).toEqual([['vide', 'avc1', 12800, 640, 360], ['soun', 'mp4a', 48000, 0, 0]]);
    expect(parseInit(hlsClips('fmp4')[1]!.init!)?.key).not.toBe(init?.key);
  });

  it('writes and reads 33-bit PTS values; the scanner counts frames and follows decode times', () => {
    const b = Buffer.from([0x21, 0, 1, 0, 1]);
    for (const t of [0, 1, 90_000, 2 ** 32 + 5, 2 ** 33 - 1]) {
      writeTimestamp(b, 0, t);
      expect(readTimestamp(b, 0)).toBe(t);
    }
    const s = new TsScanner();
    const seg = hlsClips('ts')[0]!.segments[0]!.bytes;
    for (let i = 0; i < seg.length; i += 1000) s.push(seg.subarray(i, i + 1000)); // chunks across packet edges
    expect(s.aligned).toBe(true);
    expect(s.videoFrames).toBe(24);
    expect(s.audioFrames).toBeGreaterThanOrEqual(44);
    expect([...s.codecs].sort()).toEqual(['aac', 'h264']);
    expect((s.video.last! - s.video.first!) / 90).toBe(23 * 40);
  });

  it('fMP4 writer: repeats are dropped, a torn segment leaves nothing, the file starts at 0 and plays', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'liverec-hls-unit-'));
    try {
      const clip = hlsClips('fmp4')[0]!;
      const files: { path: string; size: number; duration: number }[] = [];
      const stats: RecordingStatsDelta[] = [];
      const w = new Fmp4Writer({
        nextPath: () => join(dir, `f${files.length}.mp4`), opened: () => undefined, closed: (i) => void files.push(i),
        segment: (d) => void stats.push(d), disk: () => undefined, log: () => undefined,
      });
      w.init(clip.init!);
      const seg = (i: number, cut = Infinity) => {
        w.begin({ seq: i, uri: '', duration: 0.96, title: '', map: 'h', discontinuity: false });
        const bytes = clip.segments[i]!.bytes;
        for (let p = 0; p < Math.min(cut, bytes.length); p += 4096) w.data(bytes.subarray(p, Math.min(cut, p + 4096, bytes.length)));
        return cut === Infinity ? w.end() : (w.abort(), false);
      };
      expect(seg(1)).toBe(true);
      expect(seg(2)).toBe(true);
      expect(seg(1)).toBe(true); // listed again after a sequence reset
      expect(w.repeats).toBe(1);
      seg(3, 5000); // torn
      w.close();
      expect(files).toHaveLength(1);
      expect(stats.map((s) => s.outputVideoFrames)).toEqual([24, 24]);
      expect(files[0]!.duration).toBeCloseTo(1.92, 1);
      expect(boxes(readFileSync(files[0]!.path)).map((b) => b.type)).toEqual(['ftyp', 'moov', ...Array(8).fill(['moof', 'mdat']).flat()]); // two segments of four fragments each
      const d = await decode(files[0]!.path);
      expect(d.errors).toBe('');
      expect(d.videoFrames).toBe(48);
      expect(d.duration).toBeLessThan(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
