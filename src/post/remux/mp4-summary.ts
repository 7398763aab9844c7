// Reads back what an MP4 file holds (per track: handler, sample count, duration) by walking its boxes with small
// reads: the moov of a long recording runs to tens of MB, so it is never loaded whole (the stts is summed in blocks).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

export interface Mp4Summary {
  /** A progressive MP4 whose moov comes before the mdat (a fragmented MP4, as HLS records, is never faststart). */
  faststart: boolean;
  /** Bytes of the mdat's payload (0 without one). */
  mdatBytes: number;
  tracks: { handler: string; samples: number; duration: number; chunkOffsets: { first: number; last: number } | null; sampleBytes: number }[];
}

interface Box { type: string; start: number; body: number; end: number }

const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl']);

class BoxFile {
  private readonly head = Buffer.alloc(16);
  constructor(readonly fd: number, readonly size: number) {}

  /** The boxes from start to end; null when one is malformed or runs past end. */
  children(start: number, end: number): Box[] | null {
    const out: Box[] = [];
    for (let pos = start; pos + 8 <= end;) {
      if (readSync(this.fd, this.head, 0, 16, pos) < 8) return null;
      let len = this.head.readUInt32BE(0);
      let header = 8;
      if (len === 1) {
        len = Number(this.head.readBigUInt64BE(8));
        header = 16;
      } else if (len === 0) len = end - pos;
      if (len < header || pos + len > end) return null;
      out.push({ type: this.head.toString('latin1', 4, 8), start: pos, body: pos + header, end: pos + len });
      pos += len;
    }
    return out;
  }

  bytes(at: number, n: number): Buffer {
    const b = Buffer.alloc(n);
    readSync(this.fd, b, 0, n, at);
    return b;
  }

  /** The box at the end of a path of container boxes. */
  find(from: Box, ...path: string[]): Box | null {
    let cur: Box | undefined = from;
    for (const type of path) {
      const kids: Box[] | null = CONTAINERS.has(cur.type) ? this.children(cur.body, cur.end) : null;
      cur = kids?.find((b) => b.type === type);
      if (!cur) return null;
    }
    return cur;
  }
}

/** null when the file is not a readable, non-fragmented MP4. */
export function readMp4Summary(file: string): Mp4Summary | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const f = new BoxFile(fd, fstatSync(fd).size);
    const top = f.children(0, f.size);
    if (!top) return null;
    const moov = top.findIndex((b) => b.type === 'moov');
    const mdat = top.findIndex((b) => b.type === 'mdat');
    if (moov < 0) return null;
    const kids = f.children(top[moov]!.body, top[moov]!.end);
    if (!kids) return null;
    const tracks = kids.filter((b) => b.type === 'trak').map((t) => track(f, t));
    const fragmented = kids.some((b) => b.type === 'mvex') || top.some((b) => b.type === 'moof');
    const m = top[mdat];
    return { faststart: !fragmented && (mdat < 0 || moov < mdat), mdatBytes: m ? m.end - m.body : 0, tracks: tracks.filter((t) => t !== null) };
  } finally {
    closeSync(fd);
  }
}

function track(f: BoxFile, trak: Box): Mp4Summary['tracks'][number] | null {
  const mdhd = f.find(trak, 'mdia', 'mdhd');
  const hdlr = f.find(trak, 'mdia', 'hdlr');
  const stbl = f.find(trak, 'mdia', 'minf', 'stbl');
  if (!mdhd || !hdlr || !stbl) return null;
  const md = f.bytes(mdhd.body, 24);
  const timescale = md.readUInt32BE(md[0] === 1 ? 20 : 12);
  const handler = f.bytes(hdlr.body + 8, 4).toString('latin1');
  const kids = f.children(stbl.body, stbl.end) ?? [];
  const stsz = kids.find((b) => b.type === 'stsz');
  const stts = kids.find((b) => b.type === 'stts');
  const stco = kids.find((b) => b.type === 'stco' || b.type === 'co64');
  let chunkOffsets: { first: number; last: number } | null = null;
  if (stco) {
    const wide = stco.type === 'co64';
    const n = f.bytes(stco.body + 4, 4).readUInt32BE(0);
    const entry = (i: number): number => (wide ? Number(f.bytes(stco.body + 8 + i * 8, 8).readBigUInt64BE(0)) : f.bytes(stco.body + 8 + i * 4, 4).readUInt32BE(0));
    if (n > 0 && stco.body + 8 + n * (wide ? 8 : 4) <= stco.end) chunkOffsets = { first: entry(0), last: entry(n - 1) };
  }
  let ticks = 0;
  if (stts) {
    const n = Math.min(f.bytes(stts.body + 4, 4).readUInt32BE(0), Math.floor((stts.end - stts.body - 8) / 8));
    const block = Buffer.alloc(256 * 1024);
    const view = new DataView(block.buffer, block.byteOffset, block.length);
    for (let i = 0; i < n;) {
      const take = Math.min(n - i, block.length / 8);
      readSync(f.fd, block, 0, take * 8, stts.body + 8 + i * 8);
      for (let k = 0; k < take * 8; k += 8) ticks += view.getUint32(k) * view.getUint32(k + 4);
      i += take;
    }
  }
  const samples = stsz ? f.bytes(stsz.body + 8, 4).readUInt32BE(0) : 0;
  return { handler, samples, duration: ticks / timescale, chunkOffsets, sampleBytes: stsz ? stszBytes(f, stsz, samples) : 0 };
}

/** The sum of a track's sample sizes (the stsz read in blocks, as the stts is). */
function stszBytes(f: BoxFile, stsz: Box, samples: number): number {
  const fixed = f.bytes(stsz.body + 4, 4).readUInt32BE(0);
  if (fixed) return fixed * samples;
  const n = Math.min(samples, Math.floor((stsz.end - stsz.body - 12) / 4));
  const block = Buffer.alloc(256 * 1024);
  let sum = 0;
  for (let i = 0; i < n;) {
    const take = Math.min(n - i, block.length / 4);
    readSync(f.fd, block, 0, take * 4, stsz.body + 12 + i * 4);
    for (let k = 0; k < take * 4; k += 4) sum += block.readUInt32BE(k);
    i += take;
  }
  return sum;
}
