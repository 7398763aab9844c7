// Which FLV units need none of brec's repairs, read straight from the bytes: the tags src/flv/fast passes through.
import { AVC_FILLER } from '../codecs/nal.js';
import { TagType } from '../tag.js';

/** A unit's kind as far as the fast path cares: anything but these goes through the full pipeline. */
export const Plain = { No: 0, Audio: 1, Video: 2, Keyframe: 3 } as const;

/**
 * Classifies the whole unit at `mem[p]` (PreviousTagSize, 11-byte header, `size`-byte body), as the parser and the
 * rules would see it: audio that is not an AAC sequence header; H.264 (codec 7, not Enhanced FLV) NALU packets
 * whose NALUs parse, cover the body exactly and hold no filler. Such a tag is written as it was read (only its
 * timestamp and StreamID change); everything else (scripts, headers, End tags, HEVC, unknown types) is not plain.
 */
export function plainKind(mem: Uint8Array, p: number, size: number): number {
  const type = mem[p + 4]!;
  const b = p + 15;
  if (type === TagType.Audio) return size > 2 && mem[b]! >> 4 === 10 && mem[b + 1] === 0 ? Plain.No : Plain.Audio;
  if (type !== TagType.Video || size <= 5) return Plain.No;
  const h = mem[b]!;
  if ((h & 0x8f) !== 7 || mem[b + 1] !== 1 || !avcNalusPlain(mem, b, b + size)) return Plain.No;
  return h === 0x17 ? Plain.Keyframe : Plain.Video;
}

/** The parser's NALU walk (see scanNalus): true when it succeeds, tiles the body and finds no filler. */
function avcNalusPlain(mem: Uint8Array, body: number, end: number): boolean {
  let pos = body + 5;
  while (pos + 5 <= end) {
    const header = mem[pos + 4]!;
    if (header & 0x80 || (header & 0x1f) === AVC_FILLER) return false;
    pos += 4 + (((mem[pos]! << 24) | (mem[pos + 1]! << 16) | (mem[pos + 2]! << 8) | mem[pos + 3]!) >>> 0);
  }
  return pos === end;
}

/**
 * Whether the grouper closes an open data group that holds video at the whole unit `mem[p]`, as it does for a
 * script tag, a video sequence header, an End tag and any video keyframe. False where it would append the unit
 * or where telling needs more than the first body bytes (Enhanced FLV, audio headers, unknown codecs).
 */
export function closesDataGroup(mem: Uint8Array, p: number, size: number): boolean {
  const type = mem[p + 4]!;
  if (type === TagType.Script) return true;
  if (type !== TagType.Video || size <= 2) return false;
  const h = mem[p + 15]!;
  const codec = h & 0x0f;
  if ((size >= 5 && h & 0x80) || (codec !== 7 && codec !== 12)) return false;
  const packet = mem[p + 16]!;
  return packet === 0 || packet === 2 || h === (0x10 | codec);
}
