// Fragmented MP4 rewriting (simulator clips): samples read out of moof+mdat pairs and written back as new fragments.
import { type BoxRef, boxes, child, type Mp4Init } from '../hls/mp4-boxes.js';

export interface Mp4Sample {
  trackId: number;
  /** Decode time in the track's timescale. */
  dts: number;
  duration: number;
  /** Composition offset (signed). */
  cto: number;
  /** ISO sample flags (0x02000000 = depends on nothing, a sync sample; 0x00010000 = non-sync). */
  flags: number;
  data: Buffer;
}

export const SYNC_FLAGS = 0x02000000;
export const NON_SYNC_FLAGS = 0x01010000;

/** Every sample of every fragment in `buf` (moof+mdat pairs after an optional init), in file order per track. */
export function readSamples(buf: Buffer, init: Mp4Init | null): Mp4Sample[] {
  const out: Mp4Sample[] = [];
  for (const moof of boxes(buf).filter((b) => b.type === 'moof')) {
    for (const traf of boxes(buf, moof.body, moof.end).filter((b) => b.type === 'traf')) readTraf(buf, moof, traf, init, out);
  }
  return out;
}

function readTraf(buf: Buffer, moof: BoxRef, traf: BoxRef, init: Mp4Init | null, out: Mp4Sample[]): void {
  const tfhd = child(buf, traf, 'tfhd');
  if (!tfhd) return;
  const flags = buf.readUInt32BE(tfhd.body) & 0xffffff;
  const trackId = buf.readUInt32BE(tfhd.body + 4);
  let p = tfhd.body + 8;
  let base = moof.start;
  if (flags & 0x01) { base = Number(buf.readBigUInt64BE(p)); p += 8; }
  if (flags & 0x02) p += 4;
  let defDuration = init?.tracks.find((t) => t.trackId === trackId)?.defaultSampleDuration ?? 0;
  let defSize = 0;
  let defFlags = 0;
  if (flags & 0x08) { defDuration = buf.readUInt32BE(p); p += 4; }
  if (flags & 0x10) { defSize = buf.readUInt32BE(p); p += 4; }
  if (flags & 0x20) { defFlags = buf.readUInt32BE(p); p += 4; }
  const tfdt = child(buf, traf, 'tfdt');
  let dts = tfdt ? (buf[tfdt.body] === 1 ? Number(buf.readBigUInt64BE(tfdt.body + 4)) : buf.readUInt32BE(tfdt.body + 4)) : 0;
  let dataPos = base;
  for (const trun of boxes(buf, traf.body, traf.end).filter((b) => b.type === 'trun')) {
    const version = buf[trun.body]!;
    const tf = buf.readUInt32BE(trun.body) & 0xffffff;
    const count = buf.readUInt32BE(trun.body + 4);
    let q = trun.body + 8;
    if (tf & 0x01) { dataPos = base + buf.readInt32BE(q); q += 4; }
    let firstFlags: number | null = null;
    if (tf & 0x04) { firstFlags = buf.readUInt32BE(q); q += 4; }
    for (let i = 0; i < count; i++) {
      let duration = defDuration;
      let size = defSize;
      let sflags = i === 0 && firstFlags !== null ? firstFlags : defFlags;
      let cto = 0;
      if (tf & 0x100) { duration = buf.readUInt32BE(q); q += 4; }
      if (tf & 0x200) { size = buf.readUInt32BE(q); q += 4; }
      if (tf & 0x400) { sflags = buf.readUInt32BE(q); q += 4; }
      if (tf & 0x800) { cto = version === 0 ? buf.readUInt32BE(q) : buf.readInt32BE(q); q += 4; }
      out.push({ trackId, dts, duration, cto, flags: sflags, data: buf.subarray(dataPos, dataPos + size) });
      dts += duration;
      dataPos += size;
    }
  }
}

const box = (type: string, ...parts: Buffer[]): Buffer => {
  const size = 8 + parts.reduce((n, b) => n + b.length, 0);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(size, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, ...parts]);
};

const u32 = (...v: number[]): Buffer => {
  const b = Buffer.alloc(4 * v.length);
  v.forEach((x, i) => b.writeUInt32BE(x >>> 0, 4 * i));
  return b;
};

/**
 * One moof+mdat holding `samples` (any tracks; each track's samples in decode order, one traf each, tracks in
 * ascending id), sequence number `seq`: tfhd default-base-is-moof, tfdt v1, trun with duration/size/flags/cto.
 */
export function writeFragment(samples: readonly Mp4Sample[], seq: number): Buffer {
  const tracks = [...new Set(samples.map((s) => s.trackId))].sort((a, b) => a - b);
  const build = (offsets: number[]): Buffer => box('moof', box('mfhd', u32(0, seq)), ...tracks.map((id, k) => {
    const list = samples.filter((s) => s.trackId === id);
    const tfdt = Buffer.alloc(12);
    tfdt.writeUInt32BE(0x01000000, 0);
    tfdt.writeBigUInt64BE(BigInt(list[0]!.dts), 4);
    const entries = list.flatMap((s) => [s.duration, s.data.length, s.flags, s.cto >>> 0]);
    return box('traf', box('tfhd', u32(0x020000, id)), box('tfdt', tfdt), box('trun', u32(0x01000f01, list.length, offsets[k] ?? 0, ...entries)));
  }));
  const payload = tracks.flatMap((id) => samples.filter((s) => s.trackId === id).map((s) => s.data));
  const moofSize = build([]).length;
  let at = moofSize + 8;
  const offsets = tracks.map((id) => {
    const o = at;
    at += samples.filter((s) => s.trackId === id).reduce((n, s) => n + s.data.length, 0);
    return o;
  });
  return Buffer.concat([build(offsets), box('mdat', ...payload)]);
}

/**
 * The samples as fragments of `perGop` pieces per video GOP (sync sample to sync sample), audio going with the
 * video piece its decode time falls in: the layout of the service's 1-s segments (four moof+mdat pairs each).
 * Returns one entry per GOP, its fragments concatenated.
 */
export function fragmentByGop(samples: readonly Mp4Sample[], init: Mp4Init, perGop: number, firstSeq = 1): Buffer[] {
  const video = init.tracks.find((t) => t.handler === 'vide');
  if (!video) throw new Error('no video track');
  const scale = (id: number): number => init.tracks.find((t) => t.trackId === id)?.timescale ?? 1000;
  const vs = samples.filter((s) => s.trackId === video.trackId);
  const gops: Mp4Sample[][] = [];
  for (const s of vs) {
    if ((s.flags & 0x00010000) === 0 || gops.length === 0) gops.push([]);
    gops.at(-1)!.push(s);
  }
  const others = samples.filter((s) => s.trackId !== video.trackId);
  let seq = firstSeq;
  return gops.map((gop, gi) => {
    const pieces: Buffer[] = [];
    const per = Math.ceil(gop.length / perGop);
    for (let k = 0; k < perGop; k++) {
      const part = gop.slice(k * per, (k + 1) * per);
      if (part.length === 0) continue;
      const from = part[0]!.dts / scale(video.trackId);
      const lastPiece = k === perGop - 1 || (k + 1) * per >= gop.length;
      const until = lastPiece ? (gi === gops.length - 1 ? Infinity : gops[gi + 1]![0]!.dts / scale(video.trackId)) : gop[(k + 1) * per]!.dts / scale(video.trackId);
      const first = gi === 0 && k === 0;
      const audio = others.filter((s) => {
        const t = s.dts / scale(s.trackId);
        return (first || t >= from) && t < until;
      });
      pieces.push(writeFragment([...part, ...audio], seq++));
    }
    return Buffer.concat(pieces);
  });
}

/** `buf` with the box at the end of `chain` (outermost first) replaced by `replacement`, every enclosing size fixed. */
export function replaceBox(buf: Buffer, chain: readonly BoxRef[], replacement: Buffer): Buffer {
  const target = chain.at(-1)!;
  const delta = replacement.length - (target.end - target.start);
  const out = Buffer.concat([buf.subarray(0, target.start), replacement, buf.subarray(target.end)]);
  for (const b of chain.slice(0, -1)) out.writeUInt32BE(out.readUInt32BE(b.start) + delta, b.start);
  return out;
}
