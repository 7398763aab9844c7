// The independent reader a remux must agree with before its source may go: a second, simpler walk of the source
// than the demuxer that built the index (no resync, no sample tables, its own parsing; TS through the recorder's
// own scanner), counting video and audio samples (and, for FLV and fMP4, their bytes), compared with the MP4's index.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { TsScanner } from '../../hls/ts-packets.js';
import type { Mp4Summary } from './mp4-summary.js';

export interface SourceCount {
  video: number;
  audio: number;
  /** Sample bytes (null where the MP4 stores samples rebuilt, as for TS). */
  videoBytes: number | null;
  audioBytes: number | null;
}

const BLOCK = 1 << 20;

/** Positional reads through one block buffer: `at(offset, n)` is a view valid until the next call. */
class Blocks {
  private buf = Buffer.allocUnsafe(BLOCK);
  private base = 0;
  private len = 0;
  readonly size: number;
  constructor(private readonly fd: number) {
    this.size = fstatSync(fd).size;
  }

  at(offset: number, n: number): Buffer | null {
    if (offset + n > this.size) return null;
    if (offset < this.base || offset + n > this.base + this.len) {
      if (n > this.buf.length) this.buf = Buffer.allocUnsafe(n);
      this.base = offset;
      this.len = readSync(this.fd, this.buf, 0, Math.min(this.buf.length, this.size - offset), offset);
      if (this.len < n) return null;
    }
    return this.buf.subarray(offset - this.base, offset - this.base + n);
  }
}

/** FLV: tag after tag by their sizes, each trailer checked; a second file header is stepped over; anything else fails. */
function countFlv(b: Blocks): SourceCount | string {
  const head = b.at(0, 9);
  if (!head) return 'no FLV header';
  const c: SourceCount = { video: 0, audio: 0, videoBytes: 0, audioBytes: 0 };
  let pos = head.readUInt32BE(5) + 4;
  while (pos < b.size) {
    const h = b.at(pos, Math.min(16, b.size - pos));
    if (!h || h.length < 11) return `a partial tag at ${pos}`;
    if (h.toString('latin1', 0, 3) === 'FLV' && h.length >= 13) {
      pos += 13;
      continue;
    }
    const type = h[0]!;
    const size = h.readUIntBE(1, 3);
    if (type !== 8 && type !== 9 && type !== 18) return `no tag at ${pos}`;
    const end = pos + 11 + size;
    if (end > b.size) return `the tag at ${pos} runs past the end`;
    if (end + 4 <= b.size && b.at(end, 4)!.readUInt32BE(0) !== size + 11) return `the tag at ${pos} has a wrong trailer`;
    if (size > 0) {
      const body = b.at(pos + 11, Math.min(size, 5))!;
      if (type === 8 && body[0]! >> 4 === 10 && size > 2 && body[1] === 1) {
        c.audio++;
        c.audioBytes! += size - 2;
      } else if (type === 9) {
        let from = 0;
        if (body[0]! & 0x80) {
          const packet = body[0]! & 0x0f;
          const av1 = size >= 5 && body.toString('latin1', 1, 5) === 'av01';
          if (packet === 1) from = av1 ? 5 : 8;
          else if (packet === 3) from = 5;
        } else if (size >= 2 && body[1] === 1) from = 5;
        if (from > 0 && size > from) {
          c.video++;
          c.videoBytes! += size - from;
        }
      }
    }
    pos = Math.min(b.size, end + 4);
  }
  return c;
}

/** Child boxes of buf[start, end): their type, body and end; null when one does not fit. */
function kids(buf: Buffer, start: number, end: number): { type: string; body: number; end: number }[] | null {
  const out = [];
  for (let p = start; p < end;) {
    if (p + 8 > end) return null;
    const size = buf.readUInt32BE(p);
    if (size < 8 || p + size > end) return null;
    out.push({ type: buf.toString('latin1', p + 4, p + 8), body: p + 8, end: p + size });
    p += size;
  }
  return out;
}

const TOP = new Set(['ftyp', 'styp', 'moov', 'moof', 'mdat', 'free', 'skip', 'sidx', 'prft', 'mfra', 'uuid']);

/** fMP4: top-level boxes end to end to the file's last byte; each moof's truns counted with their sample sizes. */
function countFmp4(b: Blocks): SourceCount | string {
  const c: SourceCount = { video: 0, audio: 0, videoBytes: 0, audioBytes: 0 };
  const handler = new Map<number, string>();
  const defSize = new Map<number, number>();
  for (let pos = 0; pos < b.size;) {
    const h = b.at(pos, 16);
    if (!h) return `a partial box at ${pos}`;
    let size = h.readUInt32BE(0);
    const type = h.toString('latin1', 4, 8);
    if (size === 1) size = Number(h.readBigUInt64BE(8));
    else if (size === 0) size = b.size - pos;
    if (!TOP.has(type) || size < 8 || pos + size > b.size) return `no box at ${pos}`;
    if (type === 'moov' || type === 'moof') {
      if (size > 16 << 20) return `a ${type} of ${size} bytes at ${pos}`;
      const buf = Buffer.from(b.at(pos, size)!);
      const top = kids(buf, 8, size);
      if (!top) return `a broken ${type} at ${pos}`;
      if (type === 'moov') {
        for (const t of top) {
          if (t.type === 'mvex') for (const x of kids(buf, t.body, t.end) ?? []) if (x.type === 'trex') defSize.set(buf.readUInt32BE(x.body + 4), buf.readUInt32BE(x.body + 16));
          if (t.type !== 'trak') continue;
          const tk = kids(buf, t.body, t.end) ?? [];
          const tkhd = tk.find((x) => x.type === 'tkhd');
          const mdia = tk.find((x) => x.type === 'mdia');
          const hdlr = mdia && (kids(buf, mdia.body, mdia.end) ?? []).find((x) => x.type === 'hdlr');
          if (tkhd && hdlr) handler.set(buf.readUInt32BE(tkhd.body + (buf[tkhd.body] === 1 ? 20 : 12)), buf.toString('latin1', hdlr.body + 8, hdlr.body + 12));
        }
      } else {
        for (const traf of top.filter((x) => x.type === 'traf')) {
          const tk = kids(buf, traf.body, traf.end);
          const tfhd = tk?.find((x) => x.type === 'tfhd');
          if (!tk || !tfhd) return `a broken traf at ${pos}`;
          const tf = buf.readUInt32BE(tfhd.body) & 0xffffff;
          const id = buf.readUInt32BE(tfhd.body + 4);
          const sizeAt = tfhd.body + 8 + (tf & 1 ? 8 : 0) + (tf & 2 ? 4 : 0) + (tf & 8 ? 4 : 0);
          const dflt = tf & 0x10 ? buf.readUInt32BE(sizeAt) : (defSize.get(id) ?? 0);
          const kind = handler.get(id);
          for (const trun of tk.filter((x) => x.type === 'trun')) {
            const f = buf.readUInt32BE(trun.body) & 0xffffff;
            const n = buf.readUInt32BE(trun.body + 4);
            const per = [0x100, 0x200, 0x400, 0x800].filter((bit) => f & bit).length * 4;
            let q = trun.body + 8 + (f & 1 ? 4 : 0) + (f & 4 ? 4 : 0);
            if (q + per * n > trun.end) return `a trun at ${pos} declares more samples than it holds`;
            let bytes = 0;
            if (f & 0x200) {
              q += f & 0x100 ? 4 : 0;
              for (let i = 0; i < n; i++, q += per) bytes += buf.readUInt32BE(q);
            } else bytes = dflt * n;
            if (kind === 'vide') { c.video += n; c.videoBytes! += bytes; }
            if (kind === 'soun') { c.audio += n; c.audioBytes! += bytes; }
          }
        }
      }
    }
    pos += size;
  }
  return c;
}

function countTs(fd: number, size: number): SourceCount | string {
  const s = new TsScanner();
  const buf = Buffer.allocUnsafe(BLOCK);
  for (let at = 0; at < size;) {
    const got = readSync(fd, buf, 0, Math.min(BLOCK, size - at), at);
    if (got <= 0) break;
    s.push(buf.subarray(0, got));
    at += got;
  }
  if (s.anomalies > 0 || !s.aligned) return `the TS scanner found ${s.anomalies} bytes off packet boundaries`;
  return { video: s.videoFrames, audio: s.audioFrames, videoBytes: null, audioBytes: null };
}

/** What the independent walk finds in the source, or why it could not walk it whole. */
export function countSource(input: string, format: 'flv' | 'ts' | 'fmp4'): SourceCount | string {
  const fd = openSync(input, 'r');
  try {
    if (format === 'ts') return countTs(fd, fstatSync(fd).size);
    const b = new Blocks(fd);
    return format === 'flv' ? countFlv(b) : countFmp4(b);
  } finally {
    closeSync(fd);
  }
}

/** null when the MP4's index holds exactly what the independent walk counted in the source; else the difference. */
export function crossCheck(input: string, format: 'flv' | 'ts' | 'fmp4', mp4: Mp4Summary | null): string | null {
  if (!mp4) return 'the MP4 cannot be read back';
  const src = countSource(input, format);
  if (typeof src === 'string') return `the independent reader cannot walk the source: ${src}`;
  const track = (h: string): { samples: number; bytes: number } => {
    const t = mp4.tracks.filter((x) => x.handler === h);
    return { samples: t.reduce((n, x) => n + x.samples, 0), bytes: t.reduce((n, x) => n + x.sampleBytes, 0) };
  };
  const v = track('vide');
  const a = track('soun');
  if (v.samples !== src.video) return `the independent reader counts ${src.video} video samples in the source, the MP4 has ${v.samples}`;
  if (a.samples !== src.audio) return `the independent reader counts ${src.audio} audio samples in the source, the MP4 has ${a.samples}`;
  if (src.videoBytes !== null && v.bytes !== src.videoBytes) return `the independent reader counts ${src.videoBytes} video bytes in the source, the MP4 has ${v.bytes}`;
  if (src.audioBytes !== null && a.bytes !== src.audioBytes) return `the independent reader counts ${src.audioBytes} audio bytes in the source, the MP4 has ${a.bytes}`;
  return null;
}
