// AV1 over MPEG-TS (AOM's carriage spec) through the TS scanner and writer, checked by a test-side demuxer and libaom;
// and a stream the scanner cannot read: kept in the file, reported once, nothing thrown.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TsScanner } from '../../src/hls/ts-packets.js';
import { TsWriter } from '../../src/hls/ts-writer.js';
import { av1TsClip } from '../../src/simulator/hls/av1-ts-clip.js';
import { TsMuxer } from '../../src/simulator/hls/ts-mux.js';
import { decodeAv1Ts } from '../support/av1-ts-demux.js';
import { ffprobeBin } from '../support/media-tools.js';

const dir = mkdtempSync(join(tmpdir(), 'liverec-ts-av1-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (bin: string, args: string[]): Promise<{ stdout: string; stderr: string }> =>
  new Promise((resolve) => execFile(bin, args, { maxBuffer: 16 << 20 }, (_e, stdout, stderr) => resolve({ stdout, stderr })));

describe('AV1 over MPEG-TS', () => {
  it('the simulator packages its AV1 clip as the spec says: PMT signalling, one access unit per PES, decodable', async () => {
    const clip = av1TsClip();
    expect(clip.segments).toHaveLength(4);
    const path = join(dir, 'clip.ts');
    writeFileSync(path, Buffer.concat(clip.segments.map((s) => s.bytes)));
    const d = await decodeAv1Ts(path);
    // stream_type 0x06, registration 'AV01' first, then the AV1 video descriptor: marker+version, profile 0 with
    // seq_level_idx 1, 8-bit 4:2:0, SDR (hdr_wcg_idc 0), no initial presentation delay.
    expect(d.signalling).toEqual({ streamType: 0x06, registration: 'AV01', videoDescriptor: '81010c00', registrationFirst: true });
    expect(d.malformed).toBe(0);
    expect(d.frames).toBe(96);
    expect(d.keyframes).toBe(4);
    expect(d.errors).toBe('');
    // ffprobe reads the file too (its 2018 build shows the AV1 PID as data tagged AV01, and the AAC).
    const { stdout, stderr } = await run(ffprobeBin(), ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,codec_tag_string', '-of', 'json', path]);
    expect(stderr.trim()).toBe('');
    const streams = (JSON.parse(stdout) as { streams: { codec_type: string; codec_name?: string; codec_tag_string: string }[] }).streams;
    expect(streams.map((s) => `${s.codec_type}:${s.codec_tag_string}`).sort()).toEqual(['audio:[15][0][0][0]', 'data:AV01']);
  });

  it('the scanner reads the AV1 PID as video: frames, decode times and the codec', () => {
    const s = new TsScanner();
    for (const seg of av1TsClip().segments) s.push(seg.bytes);
    expect([...s.codecs].sort()).toEqual(['aac', 'av1']);
    expect(s.videoFrames).toBe(96);
    expect((s.video.last! - s.video.first!) / 90).toBe(95 * 40);
    expect(s.unknown.size).toBe(0);
    expect(s.anomalies).toBe(0);
  });

  it('a stream it cannot read is kept in the file and reported once, never thrown on', () => {
    const mux = new TsMuxer([
      { pid: 0x100, streamType: 0x1b, descriptors: Buffer.alloc(0) },
      { pid: 0x102, streamType: 0x06, descriptors: Buffer.from([0x05, 4, ...Buffer.from('KLVA', 'latin1')]) },
      { pid: 0x103, streamType: 0x86, descriptors: Buffer.alloc(0) },
    ], 0x100);
    const segment = (k: number): Buffer => Buffer.concat([
      mux.tables(),
      mux.pes(0x100, 0xe0, 126_000 + k * 3600, null, Buffer.from([0, 0, 0, 1, 0x09, 0xf0]), { pcr: 120_000 + k * 3600, randomAccess: true }),
      mux.pes(0x102, 0xbd, 126_000 + k * 3600, null, Buffer.alloc(300, 0x42), { aligned: true }),
    ]);
    const logs: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
    const closed: { path: string; size: number }[] = [];
    const w = new TsWriter({
      nextPath: () => join(dir, `unknown-${closed.length}.ts`), opened: () => undefined, closed: (i) => void closed.push(i),
      segment: () => undefined, disk: () => undefined, log: (level, msg, fields) => void logs.push({ level, msg, fields }),
    });
    const bytes = [segment(0), segment(1)];
    for (const [i, b] of bytes.entries()) {
      w.begin({ seq: i, uri: '', duration: 0.04, title: '', map: '', discontinuity: false });
      w.data(b);
      expect(w.end()).toBe(true);
    }
    w.close();
    expect(closed).toHaveLength(1);
    expect(readFileSync(closed[0]!.path).equals(Buffer.concat(bytes))).toBe(true); // every packet kept
    const warned = logs.filter((l) => l.fields?.code === 'TS_UNKNOWN_STREAM');
    expect(warned.map((l) => [l.fields!.pid, l.fields!.registration])).toEqual([[0x102, 'KLVA'], [0x103, '']]);
    expect(warned[0]!.msg).toContain("stream_type 0x06, registration 'KLVA'");
    expect(w.anomalies).toBe(2);
  });
});
