// Byte layout of FLV output: the file header, tag headers, PreviousTagSize, and a tag's body as written.
import { encodeAmf } from './amf.js';
import { type FlvTag, TagType, TagFlag } from './tag.js';

/** 'FLV', version 1, audio+video flags, header length 9, then PreviousTagSize0 = 0. */
export const FLV_FILE_HEADER: Readonly<Uint8Array> = Uint8Array.of(0x46, 0x4c, 0x56, 1, 5, 0, 0, 0, 9, 0, 0, 0, 0);

/**
 * Writes the 11-byte tag header at `out[pos]` and returns the position after it. The timestamp is split into
 * its low 24 bits and the extended (most significant) byte; StreamID is 0.
 */
export function writeTagHeader(out: Uint8Array, pos: number, type: number, dataSize: number, timestamp: number): number {
  out[pos] = type;
  out[pos + 1] = (dataSize >>> 16) & 0xff;
  out[pos + 2] = (dataSize >>> 8) & 0xff;
  out[pos + 3] = dataSize & 0xff;
  writeTagTimestamp(out, pos + 4, timestamp);
  out[pos + 8] = 0;
  out[pos + 9] = 0;
  out[pos + 10] = 0;
  return pos + 11;
}

/** A tag header's timestamp at `out[pos]` (header byte 4): the low 24 bits big-endian, then the extended byte. */
export function writeTagTimestamp(out: Uint8Array, pos: number, timestamp: number): void {
  out[pos] = (timestamp >>> 16) & 0xff;
  out[pos + 1] = (timestamp >>> 8) & 0xff;
  out[pos + 2] = timestamp & 0xff;
  out[pos + 3] = (timestamp >>> 24) & 0xff;
}

/** The 11-byte tag header as a new buffer. */
export function encodeTagHeader(type: number, dataSize: number, timestamp: number): Buffer {
  const b = Buffer.allocUnsafe(11);
  writeTagHeader(b, 0, type, dataSize, timestamp);
  return b;
}

export function encodePreviousTagSize(size: number): Buffer {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32BE(size >>> 0);
  return b;
}

/**
 * The body a tag is written with: scripts re-encoded from their AMF values; video with a NALU list
 * rebuilt from the surviving NALUs (filler removal shrinks it); everything else the raw bytes.
 */
export function encodeTagBody(tag: FlvTag): Uint8Array {
  if (tag.type === TagType.Script && tag.script) return encodeAmf(tag.script);
  const data = tag.data ?? new Uint8Array(0);
  if (tag.type !== TagType.Video || (tag.flag & TagFlag.Header) !== 0 || data.length < 5 || !tag.nalus) return data;
  let total = 5;
  let covers = true;
  let expect = 9;
  for (const n of tag.nalus) {
    if (n.start !== expect) covers = false;
    const available = Math.max(0, Math.min(n.fullSize, data.length - n.start));
    total += 4 + available;
    expect = n.start + n.fullSize + 4;
  }
  // Fast path: the NALUs still tile the body exactly, so the rebuilt body would equal the raw one.
  if (covers && total === data.length) return data;
  const out = Buffer.allocUnsafe(total);
  out.set(data.subarray(0, 5), 0);
  let pos = 5;
  for (const n of tag.nalus) {
    const available = Math.max(0, Math.min(n.fullSize, data.length - n.start));
    out.writeUInt32BE(available, pos);
    out.set(data.subarray(n.start, n.start + available), pos + 4);
    pos += 4 + available;
  }
  return out;
}

/** One whole tag (header + body + PreviousTagSize) as a single buffer, with the given timestamp. */
export function encodeTag(type: number, timestamp: number, body: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(11 + body.length + 4);
  writeTagHeader(out, 0, type, body.length, timestamp);
  out.set(body, 11);
  out.writeUInt32BE(body.length + 11, 11 + body.length);
  return out;
}
