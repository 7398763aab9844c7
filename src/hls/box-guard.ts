// Structural checks on fMP4 boxes before they are read or written: nesting depth, and every count/size against the bytes present.
import { type BoxRef, boxes } from './mp4-boxes.js';

/**
 * Containers the readers (ours and players') descend into. ffmpeg refuses a file whose atoms nest more than 10
 * deep ("Atoms too deeply nested"); real streams nest at most 6 (moov/trak/mdia/minf/stbl/stsd).
 */
const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl', 'dinf', 'edts', 'mvex', 'moof', 'traf', 'udta', 'mfra', 'tref', 'sinf', 'schi', 'meta', 'ilst', 'wave', 'stsd']);
/** The deepest nesting accepted, counted from the top-level box (1). */
export const MAX_BOX_DEPTH = 8;
/** Samples in one trun without per-sample fields: a fragment of a live stream holds a few hundred. */
export const MAX_RUN_SAMPLES = 1 << 20;

/** Depth of `box` (1 for itself) counting nested containers; stops counting once past `limit`. */
export function boxDepth(buf: Uint8Array, box: BoxRef, limit = MAX_BOX_DEPTH): number {
  if (!CONTAINERS.has(box.type)) return 1;
  if (limit <= 0) return 1;
  // stsd's children start after its 8-byte full-box header and entry count; meta is a full box too.
  const skip = box.type === 'stsd' ? 8 : box.type === 'meta' ? 4 : 0;
  let deepest = 0;
  for (const c of boxes(buf, box.body + skip, box.end)) {
    deepest = Math.max(deepest, boxDepth(buf, c, limit - 1));
    if (deepest >= limit) break;
  }
  return 1 + deepest;
}

/** Why a moof cannot be read or written validly, or null when it can. `moof` spans its whole buffer range. */
export function moofProblem(buf: Uint8Array, moof: BoxRef): string | null {
  if (boxDepth(buf, moof) > 3) return 'moof nests boxes deeper than moof/traf/box';
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let trafs = 0;
  for (const b of boxes(buf, moof.body, moof.end)) {
    if (b.type === 'moof') return 'moof inside moof';
    if (b.type !== 'traf') continue;
    trafs++;
    for (const c of boxes(buf, b.body, b.end)) {
      const len = c.end - c.body;
      if (c.type === 'tfhd' && len < 8) return 'tfhd too short';
      if (c.type === 'tfdt' && len < (buf[c.body] === 1 ? 12 : 8)) return 'tfdt too short';
      if (c.type !== 'trun') continue;
      if (len < 8) return 'trun too short';
      const flags = view.getUint32(c.body) & 0xffffff;
      const count = view.getUint32(c.body + 4);
      const head = 8 + (flags & 0x01 ? 4 : 0) + (flags & 0x04 ? 4 : 0);
      const per = ((flags & 0x100 ? 1 : 0) + (flags & 0x200 ? 1 : 0) + (flags & 0x400 ? 1 : 0) + (flags & 0x800 ? 1 : 0)) * 4;
      if (head + per * count > len) return `trun declares ${count} samples, more than its ${len} bytes hold`;
      if (per === 0 && count > MAX_RUN_SAMPLES) return `trun declares ${count} samples`;
    }
  }
  return trafs === 0 ? 'moof without traf' : null;
}
