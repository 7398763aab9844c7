// Lossless clips of a recorded file: the MP4 starts at the keyframe at or before the start, lasts the span within one
// GOP, reads clean in ffprobe; its XML and ASS hold exactly the span's danmaku with times from the clip's start; the
// source is untouched. Also FLV clips, TS and fMP4 sources, and `liverec tool clip`.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip, type ClipResult } from '../../src/clips/clip.js';
import { packageRoot } from '../../src/paths.js';
import { ffprobeBin, probe } from '../support/media-tools.js';
import { clip } from '../post/media.js';
import { clipPattern, sourceFlv, writeXml, type Item } from './fixtures.js';

const GOP_S = 0.96;
const dir = mkdtempSync(join(tmpdir(), 'liverec-clip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sha = (p: string): string => createHash('sha256').update(readFileSync(p)).digest('hex');

/** Video packets as ffprobe reads them: presentation time and keyframe flag, in decode order. */
function videoPackets(file: string): { pts: number; key: boolean }[] {
  const csv = execFileSync(ffprobeBin(), ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,flags', '-of', 'csv=p=0', file], { encoding: 'utf8' });
  return csv.trim().split('\n').map((l) => l.split(',')).map(([pts, flags]) => ({ pts: Number(pts), key: (flags ?? '').includes('K') }));
}

/** The `<d>` comments of an XML: text and time (p's first field). */
function comments(xml: string): { text: string; t: number }[] {
  return [...xml.matchAll(/<d p="([^"]*)"[^>]*>([^<]*)<\/d>/g)].map((m) => ({ t: Number(m[1]!.split(',')[0]), text: m[2]! }));
}

describe('lossless clip of a recorded FLV, 5 s to 12 s', () => {
  const src = join(dir, '23058-n', 'rec.flv');
  const items: Item[] = clipPattern();
  let before: string;
  let r: ClipResult;
  beforeAll(() => {
    execFileSync('mkdir', ['-p', join(dir, '23058-n')]);
    sourceFlv(src);
    writeXml(src.replace(/\.flv$/, '.xml'), items);
    before = sha(src);
    r = makeClip({ input: src, startMs: 5000, endMs: 12000, format: 'mp4', danmaku: true });
  });

  it('starts at the source\'s last keyframe at or before 5 s', () => {
    const keys = videoPackets(src).filter((p) => p.key).map((p) => p.pts);
    const expected = Math.max(...keys.filter((k) => k <= 5));
    expect(r.fromMs / 1000).toBeCloseTo(expected, 3);
    expect(r.output).toBe(join(dir, '23058-n', 'rec.clip-5000-12000.mp4'));
  });

  it('is an MP4 whose first frame is a keyframe, lasting 7 s within one GOP, that ffprobe reads and ffmpeg decodes clean', async () => {
    const packets = videoPackets(r.output);
    expect(packets[0]!.key).toBe(true);
    expect(packets[0]!.pts).toBeLessThan(0.05);
    const p = await probe(r.output);
    expect(p.errors).toBe('');
    expect(p.codecs).toEqual(['h264', 'aac']);
    expect(Math.abs(p.duration - 7)).toBeLessThanOrEqual(GOP_S);
    const decode = spawnSync(join(packageRoot, 'node_modules', '@ffmpeg-installer', 'linux-x64', 'ffmpeg'), ['-v', 'error', '-i', r.output, '-f', 'null', '-'], { encoding: 'utf8' });
    expect(decode.status).toBe(0);
    expect(decode.stderr).toBe('');
    // faststart: the moov before the mdat
    const head = readFileSync(r.output).subarray(0, 64 * 1024).toString('latin1');
    expect(head.indexOf('moov')).toBeGreaterThan(0);
    expect(head.indexOf('moov')).toBeLessThan(head.indexOf('mdat'));
  });

  it('its XML holds exactly the span\'s danmaku, times shifted to the clip', () => {
    const xml = readFileSync(r.danmaku!.xml, 'utf8');
    const inSpan = items.filter((i) => i.t * 1000 >= r.fromMs && i.t * 1000 < 12000);
    const want = inSpan.filter((i) => i.kind === 'd');
    const got = comments(xml);
    expect(got.map((c) => c.text)).toEqual(want.map((i) => i.text ?? `c${items.indexOf(i)}`));
    got.forEach((c, k) => expect(c.t).toBeCloseTo(want[k]!.t - r.fromMs / 1000, 3));
    expect(xml).not.toContain('just before the keyframe');
    // The super chat, gift and guard purchase inside the span, shifted too.
    for (const [name, t] of [['sc', 6], ['gift', 8.2], ['guard', 11.9]] as const) {
      const m = new RegExp(`<${name} ts="([^"]+)"`).exec(xml);
      expect(Number(m?.[1]), name).toBeCloseTo(t - r.fromMs / 1000, 3);
    }
    expect(r.danmaku!.items).toBe(inSpan.length);
  });

  it('its ASS has one event per comment and super chat of the span, at the shifted times', () => {
    const ass = readFileSync(r.danmaku!.ass, 'utf8');
    const starts = [...ass.matchAll(/^Dialogue: \d+,(\d+):(\d\d):(\d\d\.\d\d),/gm)].map((m) => Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]));
    const want = items.filter((i) => (i.kind === 'd' || i.kind === 'sc') && i.t * 1000 >= r.fromMs && i.t * 1000 < 12000).map((i) => i.t - r.fromMs / 1000);
    expect(starts.length).toBe(want.length);
    expect([...starts].sort((a, b) => a - b).map((s) => s.toFixed(2))).toEqual(want.sort((a, b) => a - b).map((s) => (Math.round(s * 100) / 100).toFixed(2)));
  });

  it('leaves the source untouched', () => {
    expect(sha(src)).toBe(before);
  });

  it('as FLV: the same cut, a keyframe first, times from 0', async () => {
    const f = makeClip({ input: src, startMs: 5000, endMs: 12000, format: 'flv', danmaku: false });
    expect(f.output).toMatch(/\.clip-5000-12000\.flv$/);
    expect(f.fromMs).toBe(r.fromMs);
    const packets = videoPackets(f.output);
    expect(packets[0]!.key).toBe(true);
    expect(packets[0]!.pts).toBeLessThan(0.05);
    const p = await probe(f.output);
    expect(p.errors).toBe('');
    expect(Math.abs(p.duration - 7)).toBeLessThanOrEqual(GOP_S);
    // Same frames as the MP4 clip.
    expect(packets.length).toBe(videoPackets(r.output).length);
    expect(sha(src)).toBe(before);
  });
});

describe('clips of HLS recordings and of bad requests', () => {
  for (const name of ['clip-360p.fmp4', 'clip-360p.mpegts']) {
    it(`${name}: 1 s to 3 s → an MP4 starting at a keyframe, ffprobe clean`, async () => {
      const src = join(dir, name.replace('.mpegts', '.ts').replace('.fmp4', '.mp4'));
      copyFileSync(clip(name), src);
      const c = makeClip({ input: src, startMs: 1000, endMs: 3000, format: 'mp4', danmaku: true });
      expect(c.danmaku).toBeNull();
      expect(c.fromMs).toBeLessThanOrEqual(1000);
      expect(c.fromMs).toBeGreaterThan(1000 - GOP_S * 1000 - 1);
      const p = await probe(c.output);
      expect(p.errors).toBe('');
      expect(Math.abs(p.duration - (3000 - c.fromMs) / 1000)).toBeLessThan(0.1);
      expect(videoPackets(c.output)[0]!.key).toBe(true);
    });
  }

  it('refuses a reversed range, a missing file, an FLV clip of a non-FLV source, and a span without video', () => {
    const src = join(dir, '23058-n', 'rec.flv');
    expect(() => makeClip({ input: src, startMs: 5000, endMs: 5000, format: 'mp4', danmaku: false })).toThrow(expect.objectContaining({ code: 'CLIP_BAD_RANGE' }));
    expect(() => makeClip({ input: join(dir, 'none.flv'), startMs: 0, endMs: 1000, format: 'mp4', danmaku: false })).toThrow(expect.objectContaining({ code: 'CLIP_NO_SOURCE' }));
    expect(() => makeClip({ input: join(dir, 'clip-360p.mp4'), startMs: 0, endMs: 1000, format: 'flv', danmaku: false })).toThrow(expect.objectContaining({ code: 'CLIP_BAD_INPUT' }));
    expect(() => makeClip({ input: src, startMs: 60_000, endMs: 70_000, format: 'mp4', danmaku: false })).toThrow(expect.objectContaining({ code: 'CLIP_EMPTY' }));
  });
});

describe('liverec tool clip', () => {
  const cli = join(packageRoot, 'dist', 'cli', 'liverec.cjs');
  it('cuts offline and reports JSON', () => {
    const src = join(dir, 'tool.flv');
    sourceFlv(src);
    writeXml(join(dir, 'tool.xml'), clipPattern());
    const run = spawnSync(process.execPath, [cli, 'tool', 'clip', src, '5', '0:12', '--json'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout) as ClipResult & { status: string };
    expect(out.status).toBe('OK');
    expect(out.output).toBe(join(dir, 'tool.clip-5000-12000.mp4'));
    expect(out.danmaku?.items).toBeGreaterThan(0);
    expect(readFileSync(out.output).length).toBeGreaterThan(1000);
  });

  it('refuses a bad time with exit 2, a missing file with exit 1', () => {
    const bad = spawnSync(process.execPath, [cli, 'tool', 'clip', join(dir, 'tool.flv'), 'abc', '5'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('<start>');
    const missing = spawnSync(process.execPath, [cli, 'tool', 'clip', join(dir, 'nope.flv'), '1', '5'], { encoding: 'utf8' });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('CLIP_NO_SOURCE');
  });
});
