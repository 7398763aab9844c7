// ISO BMFF box reading for fragmented MP4: init segments (tracks, codecs, timescales) and moof fragments (decode times).

export interface BoxRef {
  type: string;
  /** Offset of the box header in the buffer. */
  start: number;
  /** Offset of the payload (after size/type/largesize). */
  body: number;
  /** Offset just past the box. */
  end: number;
}

/** The boxes in `buf[start, end)`; a truncated or malformed box ends the list (callers see the shortfall). */
export function boxes(buf: Uint8Array, start = 0, end = buf.length): BoxRef[] {
  const out: BoxRef[] = [];
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let pos = start;
  while (pos + 8 <= end) {
    let size = view.getUint32(pos);
    const type = String.fromCharCode(buf[pos + 4]!, buf[pos + 5]!, buf[pos + 6]!, buf[pos + 7]!);
    let body = pos + 8;
    if (size === 1) {
      if (pos + 16 > end) break;
      size = Number(view.getBigUint64(pos + 8));
      body = pos + 16;
    } else if (size === 0) size = end - pos;
    if (size < body - pos || pos + size > end) break;
    out.push({ type, start: pos, body, end: pos + size });
    pos += size;
  }
  return out;
}

/** The first child box of `type` inside `parent` (or inside `buf` when parent is null). */
export function child(buf: Uint8Array, parent: BoxRef | null, type: string, skip = 0): BoxRef | undefined {
  return boxes(buf, (parent?.body ?? 0) + skip, parent?.end ?? buf.length).find((b) => b.type === type);
}

/** Walks a path of nested boxes: `path(buf, root, 'mdia', 'minf', 'stbl')`. */
export function path(buf: Uint8Array, root: BoxRef | undefined, ...types: string[]): BoxRef | undefined {
  let at = root;
  for (const t of types) {
    if (!at) return undefined;
    at = child(buf, at, t);
  }
  return at;
}

export interface Mp4Track {
  trackId: number;
  /** 'vide', 'soun', … */
  handler: string;
  timescale: number;
  /** Sample entry type: avc1, hvc1, hev1, mp4a, … */
  codec: string;
  width: number;
  height: number;
  defaultSampleDuration: number;
}

export interface Mp4Init {
  tracks: Mp4Track[];
  /**
   * Identity of what decoders need: per track handler, timescale and the whole sample entry (codec, size,
   * avcC/hvcC/esds). Two inits with the same key can share one file; a different key starts a new file.
   */
  key: string;
}

const hex = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

/** Reads ftyp/moov of an init segment; null when it has no moov with at least one track. */
export function parseInit(buf: Uint8Array): Mp4Init | null {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const moov = child(buf, null, 'moov');
  if (!moov) return null;
  const trex = new Map<number, number>();
  const mvex = child(buf, moov, 'mvex');
  if (mvex) for (const b of boxes(buf, mvex.body, mvex.end)) if (b.type === 'trex' && b.end - b.body >= 24) trex.set(view.getUint32(b.body + 4), view.getUint32(b.body + 12));
  const tracks: Mp4Track[] = [];
  const keys: string[] = [];
  for (const trak of boxes(buf, moov.body, moov.end).filter((b) => b.type === 'trak')) {
    const tkhd = child(buf, trak, 'tkhd');
    const mdhd = path(buf, trak, 'mdia', 'mdhd');
    const hdlr = path(buf, trak, 'mdia', 'hdlr');
    const stsd = path(buf, trak, 'mdia', 'minf', 'stbl', 'stsd');
    if (!tkhd || !mdhd || !hdlr || !stsd) continue;
    const tkhdV1 = buf[tkhd.body] === 1;
    const trackId = view.getUint32(tkhd.body + (tkhdV1 ? 20 : 12));
    const mdhdV1 = buf[mdhd.body] === 1;
    const timescale = view.getUint32(mdhd.body + (mdhdV1 ? 20 : 12));
    const handler = String.fromCharCode(...buf.subarray(hdlr.body + 8, hdlr.body + 12));
    const entry = boxes(buf, stsd.body + 8, stsd.end)[0];
    const codec = entry?.type ?? '';
    const visual = handler === 'vide' && entry && entry.end - entry.body >= 28;
    tracks.push({
      trackId, handler, timescale, codec,
      width: visual ? view.getUint16(entry.body + 24) : 0,
      height: visual ? view.getUint16(entry.body + 26) : 0,
      defaultSampleDuration: trex.get(trackId) ?? 0,
    });
    keys.push(`${trackId}:${handler}:${timescale}:${entry ? hex(buf.subarray(entry.start, entry.end)) : ''}`);
  }
  return tracks.length > 0 ? { tracks, key: keys.join('|') } : null;
}

export interface TrackRun {
  trackId: number;
  /** tfdt baseMediaDecodeTime, in the track's timescale. */
  baseDecodeTime: number;
  /** Offset of the tfdt time field in the moof buffer (for rewriting), and its width in bytes. */
  tfdtOffset: number;
  tfdtWidth: 4 | 8;
  samples: number;
  /** Sum of sample durations, in the track's timescale. */
  duration: number;
  /** Sum of sample sizes in bytes. */
  bytes: number;
}

const TFHD_DURATION = 0x08;
const TFHD_SIZE = 0x10;

/** A track fragment header: its track, explicit base data offset (null: none) and sample defaults (ISO 14496-12 §8.8.7). */
export interface Tfhd {
  trackId: number;
  baseDataOffset: number | null;
  defDuration: number;
  defSize: number;
  defFlags: number;
}

export function readTfhd(view: DataView, tfhd: BoxRef, init: Mp4Init | null): Tfhd {
  const flags = view.getUint32(tfhd.body) & 0xffffff;
  const trackId = view.getUint32(tfhd.body + 4);
  let p = tfhd.body + 8;
  let baseDataOffset: number | null = null;
  if (flags & 0x01) { baseDataOffset = Number(view.getBigUint64(p)); p += 8; }
  if (flags & 0x02) p += 4;
  const out: Tfhd = { trackId, baseDataOffset, defDuration: init?.tracks.find((t) => t.trackId === trackId)?.defaultSampleDuration ?? 0, defSize: 0, defFlags: 0 };
  if (flags & TFHD_DURATION) { out.defDuration = view.getUint32(p); p += 4; }
  if (flags & TFHD_SIZE) { out.defSize = view.getUint32(p); p += 4; }
  if (flags & 0x20) out.defFlags = view.getUint32(p);
  return out;
}

/** Reads every traf of one moof box (`buf` holds the moof); tracks without tfdt/trun still report what they have. */
export function parseMoof(buf: Uint8Array, moof: BoxRef, init: Mp4Init | null): TrackRun[] {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const runs: TrackRun[] = [];
  for (const traf of boxes(buf, moof.body, moof.end).filter((b) => b.type === 'traf')) {
    const tfhd = child(buf, traf, 'tfhd');
    if (!tfhd) continue;
    const { trackId, defDuration, defSize } = readTfhd(view, tfhd, init);
    const run: TrackRun = { trackId, baseDecodeTime: 0, tfdtOffset: -1, tfdtWidth: 4, samples: 0, duration: 0, bytes: 0 };
    const tfdt = child(buf, traf, 'tfdt');
    if (tfdt) {
      run.tfdtWidth = buf[tfdt.body] === 1 ? 8 : 4;
      run.tfdtOffset = tfdt.body + 4;
      run.baseDecodeTime = run.tfdtWidth === 8 ? Number(view.getBigUint64(run.tfdtOffset)) : view.getUint32(run.tfdtOffset);
    }
    for (const trun of boxes(buf, traf.body, traf.end).filter((b) => b.type === 'trun')) {
      const tf = view.getUint32(trun.body) & 0xffffff;
      const count = view.getUint32(trun.body + 4);
      let q = trun.body + 8 + (tf & 0x01 ? 4 : 0) + (tf & 0x04 ? 4 : 0);
      const per = ((tf & 0x100 ? 1 : 0) + (tf & 0x200 ? 1 : 0) + (tf & 0x400 ? 1 : 0) + (tf & 0x800 ? 1 : 0)) * 4;
      if (q + per * count > trun.end) continue; // a torn trun: counted as nothing
      if (!(tf & 0x100) && !(tf & 0x200)) {
        // No per-sample duration or size: the defaults apply to every sample (no loop, so a junk count cannot spin).
        run.duration += defDuration * count;
        run.bytes += defSize * count;
        run.samples += count;
        continue;
      }
      for (let i = 0; i < count; i++) {
        let r = q;
        if (tf & 0x100) { run.duration += view.getUint32(r); r += 4; } else run.duration += defDuration;
        if (tf & 0x200) run.bytes += view.getUint32(r);
        else run.bytes += defSize;
        q += per;
      }
      run.samples += count;
    }
    runs.push(run);
  }
  return runs;
}

/** Rewrites a fragment's tfdt times in place (the simulator's loop offset). */
export function setDecodeTime(buf: Uint8Array, run: TrackRun, time: number): void {
  if (run.tfdtOffset < 0) return;
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (run.tfdtWidth === 8) view.setBigUint64(run.tfdtOffset, BigInt(time));
  else view.setUint32(run.tfdtOffset, time >>> 0);
}
