// Whole fMP4 fragments (moof and the boxes up to the next moof) out of the preview's segments, each marked when a
// viewer may start on it: its video track's first sample is a sync sample (ISO 14496-12 §8.8.3.1 sample flags).
import { boxes, child } from '../hls/mp4-boxes.js';

export interface Mp4Fragment {
  /** moof, mdat and whatever lies between them and the next moof, as in the file. */
  bytes: Uint8Array;
  /** Begins with a keyframe (or the file has no video track): a viewer may start here. */
  key: boolean;
}

/** What deciding a fragment's first sample needs from the init section: the video tracks and their trex default flags. */
export interface Mp4KeyInfo {
  video: Map<number, number>;
}

/** sample_is_non_sync_sample (bit 16 of the sample flags). */
const NON_SYNC = 0x10000;

/** The video tracks of an init section (ftyp+moov) and their default sample flags (0 when it gives none). */
export function keyInfoOf(head: Uint8Array): Mp4KeyInfo {
  const video = new Map<number, number>();
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const moov = child(head, null, 'moov');
  if (!moov) return { video };
  const trex = new Map<number, number>();
  const mvex = child(head, moov, 'mvex');
  if (mvex) for (const b of boxes(head, mvex.body, mvex.end)) if (b.type === 'trex' && b.end - b.body >= 24) trex.set(view.getUint32(b.body + 4), view.getUint32(b.body + 20));
  for (const trak of boxes(head, moov.body, moov.end).filter((b) => b.type === 'trak')) {
    const tkhd = child(head, trak, 'tkhd');
    const mdia = child(head, trak, 'mdia');
    const hdlr = mdia && child(head, mdia, 'hdlr');
    if (!tkhd || tkhd.end - tkhd.body < 24 || !hdlr || hdlr.end - hdlr.body < 12) continue;
    if (String.fromCharCode(...head.subarray(hdlr.body + 8, hdlr.body + 12)) !== 'vide') continue;
    const id = view.getUint32(tkhd.body + (head[tkhd.body] === 1 ? 20 : 12));
    video.set(id, trex.get(id) ?? 0);
  }
  return { video };
}

/** Whether a moof's video track starts with a sync sample; true when it carries no video (audio may start anywhere). */
function startsWithKey(buf: Uint8Array, moof: { body: number; end: number }, info: Mp4KeyInfo): boolean {
  if (info.video.size === 0) return true;
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let sawVideo = false;
  for (const traf of boxes(buf, moof.body, moof.end).filter((b) => b.type === 'traf')) {
    const tfhd = child(buf, traf, 'tfhd');
    if (!tfhd || tfhd.end - tfhd.body < 8) continue;
    const id = view.getUint32(tfhd.body + 4);
    if (!info.video.has(id)) continue;
    sawVideo = true;
    const tf = view.getUint32(tfhd.body) & 0xffffff;
    let flags = info.video.get(id)!;
    if (tf & 0x20) {
      const at = tfhd.body + 8 + (tf & 0x01 ? 8 : 0) + (tf & 0x02 ? 4 : 0) + (tf & 0x08 ? 4 : 0) + (tf & 0x10 ? 4 : 0);
      if (at + 4 <= tfhd.end) flags = view.getUint32(at);
    }
    const trun = child(buf, traf, 'trun');
    if (!trun || trun.end - trun.body < 8) return false;
    const rf = view.getUint32(trun.body) & 0xffffff;
    if (view.getUint32(trun.body + 4) === 0) continue;
    let q = trun.body + 8 + (rf & 0x01 ? 4 : 0);
    if (rf & 0x04) {
      flags = q + 4 <= trun.end ? view.getUint32(q) : flags;
    } else if (rf & 0x400) {
      q += (rf & 0x100 ? 4 : 0) + (rf & 0x200 ? 4 : 0);
      if (q + 4 <= trun.end) flags = view.getUint32(q);
    }
    if (flags & NON_SYNC) return false;
  }
  // A fragment of audio only in a file with video: no picture can start here.
  return sawVideo;
}

/** Splits whole segments (box-aligned runs of the file) into fragments; bytes before the first moof join no fragment. */
export function fragmentsOf(segment: Uint8Array, info: Mp4KeyInfo): Mp4Fragment[] {
  const list = boxes(segment);
  const out: Mp4Fragment[] = [];
  let from = -1;
  let key = false;
  for (const b of list) {
    if (b.type !== 'moof') continue;
    if (from >= 0) out.push({ bytes: segment.subarray(from, b.start), key });
    from = b.start;
    key = startsWithKey(segment, b, info);
  }
  if (from >= 0) out.push({ bytes: segment.subarray(from), key });
  return out;
}
