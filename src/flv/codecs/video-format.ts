// The two FLV layouts of video tags: legacy (codec id 7 AVC, 12 Bilibili HEVC) and Enhanced FLV (E-RTMP FourCC).
import { FlvError } from '../errors.js';

/** Legacy codec ids: 7 = AVC (standard), 12 = HEVC (Bilibili and other CDNs; not in the FLV specification). */
export const CODEC_ID = { Avc: 7, Hevc: 12 } as const;

/** Enhanced RTMP FourCCs as 32-bit big-endian numbers (also onMetaData `videocodecid` in Enhanced files). */
export const FOURCC = { hvc1: 0x68766331, avc1: 0x61766331 } as const;

/** Enhanced packet types (low 4 bits of byte 0 when bit 7, IsExHeader, is set). */
const PT = { SequenceStart: 0, CodedFrames: 1, SequenceEnd: 2, CodedFramesX: 3 } as const;

export type VideoCodec = 'avc' | 'hevc';

/** The codec of a legacy-layout video body (the internal model), or null for other ids. */
export function videoCodecOf(body: Uint8Array | null): VideoCodec | null {
  if (!body || body.length === 0) return null;
  const id = body[0]! & 0x0f;
  return id === CODEC_ID.Avc ? 'avc' : id === CODEC_ID.Hevc ? 'hevc' : null;
}

export const isHevcBody = (body: Uint8Array | null): boolean => body !== null && body.length > 0 && (body[0]! & 0x0f) === CODEC_ID.Hevc;

/** True when the body uses the Enhanced layout (IsExHeader). */
export const isEnhancedBody = (body: Uint8Array): boolean => body.length >= 5 && (body[0]! & 0x80) !== 0;

const fourccOf = (b: Uint8Array): number => ((b[1]! << 24) | (b[2]! << 16) | (b[3]! << 8) | b[4]!) >>> 0;

const fourccText = (n: number): string =>
  String.fromCharCode((n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff).replace(/[^\x20-\x7e]/g, '?');

/**
 * An Enhanced FLV video body in the internal legacy layout (a new buffer: byte 0 frame type | codec id,
 * byte 1 packet type, bytes 2–4 composition time, then the record or length-prefixed NALUs). The rules and
 * writer then treat both input forms alike. Returns `null` for packet types with no legacy equivalent
 * (Metadata, MPEG2TSSequenceStart, ...), which are kept as received; an error for FourCCs other than hvc1/avc1.
 */
export function enhancedToLegacy(body: Uint8Array): Uint8Array | null | FlvError {
  const fourcc = fourccOf(body);
  const id = fourcc === FOURCC.hvc1 ? CODEC_ID.Hevc : fourcc === FOURCC.avc1 ? CODEC_ID.Avc : 0;
  if (id === 0) return new FlvError('UNSUPPORTED_CODEC', `Unsupported Enhanced FLV video FourCC '${fourccText(fourcc)}'; hvc1 and avc1 are supported.`);
  const frameType = (body[0]! >> 4) & 0x07;
  const type = body[0]! & 0x0f;
  let out: Uint8Array;
  if (type === PT.CodedFrames) {
    if (body.length < 8) return null;
    out = new Uint8Array(body.length - 3);
    out.set(body.subarray(5), 2);
    out[1] = 1;
  } else if (type === PT.SequenceStart || type === PT.CodedFramesX || type === PT.SequenceEnd) {
    out = new Uint8Array(body.length);
    out.set(body.subarray(5), 5);
    out[1] = type === PT.SequenceStart ? 0 : type === PT.SequenceEnd ? 2 : 1;
  } else {
    return null;
  }
  out[0] = (frameType << 4) | id;
  return out;
}

/** A body rewritten as new leading bytes followed by the original body from `skip` on. */
export interface HeadSwap {
  head: Uint8Array;
  skip: number;
}

/**
 * A legacy-layout HEVC body (codec id 12) in Enhanced FLV form, `hvc1`, as a new head over the unchanged
 * rest: sequence header → SequenceStart, frames → CodedFrames (composition time kept), end → SequenceEnd.
 * Null for other bodies. Writers gather head and rest, so a frame's bytes are never copied for this.
 */
export function legacyToEnhancedHead(body: Uint8Array): HeadSwap | null {
  if (body.length < 5 || (body[0]! & 0x8f) !== CODEC_ID.Hevc) return null;
  const frameType = (body[0]! >> 4) & 0x07;
  const packet = body[1]!;
  let pt: number;
  let head: Uint8Array;
  if (packet === 1 && body[2] === 0 && body[3] === 0 && body[4] === 0) {
    head = new Uint8Array(5);
    pt = PT.CodedFramesX;
  } else if (packet === 1) {
    head = new Uint8Array(8);
    head[5] = body[2]!; head[6] = body[3]!; head[7] = body[4]!;
    pt = PT.CodedFrames;
  } else if (packet === 0 || packet === 2) {
    head = new Uint8Array(5);
    pt = packet === 0 ? PT.SequenceStart : PT.SequenceEnd;
  } else {
    return null;
  }
  head[0] = 0x80 | (frameType << 4) | pt;
  head[1] = 0x68; head[2] = 0x76; head[3] = 0x63; head[4] = 0x31; // 'hvc1'
  return { head, skip: 5 };
}

/** legacyToEnhancedHead as one new body; other bodies are returned unchanged. */
export function legacyToEnhanced(body: Uint8Array): Uint8Array {
  const swap = legacyToEnhancedHead(body);
  if (!swap) return body;
  const out = new Uint8Array(swap.head.length + body.length - swap.skip);
  out.set(swap.head);
  out.set(body.subarray(swap.skip), swap.head.length);
  return out;
}

/** How HEVC is written: Enhanced FLV (`hvc1`, read by ffmpeg ≥ 6.1) or codec id 12 as received (brec's files). */
export type HevcOutputForm = 'enhanced' | 'codec12';
