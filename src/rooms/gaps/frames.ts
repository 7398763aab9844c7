// Media frames as both packagings carry them (AVCC/HVCC NAL units, raw AAC), their content keys, and FLV tags made from them.
import { createHash } from 'node:crypto';
import { FLV_FILE_HEADER, writeTagHeader } from '../../flv/tag-encoding.js';
import { FlvParser } from '../../flv/parser.js';
import { type FlvTag, TagType } from '../../flv/tag.js';

/** One frame of the stream, on the HLS timeline (ms). */
export interface MediaFrame {
  video: boolean;
  ms: number;
  /** Composition offset (ms), video only. */
  ctsMs: number;
  key: boolean;
  /** Video: length-prefixed NAL units; audio: the raw AAC frame. */
  payload: Uint8Array;
  /**
   * HLS: the key of the init section the frame was read under (its decoder parameters, mp4-boxes.ts `Mp4Init.key`).
   * Frames under different ones never share a file: an FLV sequence header describes one set of parameters.
   */
  init?: string;
}

/** NAL types that packagers add or drop (access unit delimiters, filler): left out of a frame's identity. */
const AVC_SKIP = new Set([9, 12]);
const HEVC_SKIP = new Set([35, 38]);

/**
 * A frame's content identity: a hash of its NAL units (4-byte lengths) without delimiters and filler, or of the
 * raw audio frame. The encoder's bytes are the same in FLV and HLS, so equal keys mean the same frame.
 */
export function frameKey(video: boolean, payload: Uint8Array, hevc = false): string {
  const h = createHash('sha1');
  if (!video) return h.update(payload).digest('base64');
  const skip = hevc ? HEVC_SKIP : AVC_SKIP;
  let p = 0;
  while (p + 4 < payload.length) {
    const len = ((payload[p]! << 24) >>> 0) + (payload[p + 1]! << 16) + (payload[p + 2]! << 8) + payload[p + 3]!;
    if (len === 0 || p + 4 + len > payload.length) return createHash('sha1').update(payload).digest('base64'); // not length-prefixed: the whole payload
    const b = payload[p + 4]!;
    const type = hevc ? (b >> 1) & 0x3f : b & 0x1f;
    if (!skip.has(type)) h.update(payload.subarray(p, p + 4 + len));
    p += 4 + len;
  }
  return h.digest('base64');
}

/** The frame payload of an FLV data tag (after the 5-byte video or 2-byte AAC prefix). */
export function tagPayload(tag: FlvTag): Uint8Array {
  return tag.data!.subarray(tag.type === TagType.Video ? 5 : 2);
}

export function tagKey(tag: FlvTag): string {
  return frameKey(tag.type === TagType.Video, tagPayload(tag), tag.type === TagType.Video && (tag.data![0]! & 0x0f) === 12);
}

/**
 * FLV data tags for `frames` at `ms - offset`, with the stream's own prefixes: the video codec id (7 AVC, 12 HEVC)
 * and the AAC header byte. Parsed back by the FLV parser, so they are the same kind of tag as received ones.
 */
export function framesToTags(frames: readonly MediaFrame[], offset: number, videoCodec: number, audioByte: number): FlvTag[] {
  const size = frames.reduce((n, f) => n + 15 + f.payload.length + (f.video ? 5 : 2), FLV_FILE_HEADER.length);
  const out = new Uint8Array(size);
  out.set(FLV_FILE_HEADER, 0);
  let p = FLV_FILE_HEADER.length;
  for (const f of frames) {
    const bodySize = f.payload.length + (f.video ? 5 : 2);
    p = writeTagHeader(out, p, f.video ? TagType.Video : TagType.Audio, bodySize, (f.ms - offset) | 0);
    if (f.video) {
      out[p] = ((f.key ? 1 : 2) << 4) | videoCodec;
      out[p + 1] = 1;
      const cts = f.ctsMs & 0xffffff;
      out[p + 2] = cts >> 16;
      out[p + 3] = (cts >> 8) & 0xff;
      out[p + 4] = cts & 0xff;
      out.set(f.payload, p + 5);
    } else {
      out[p] = audioByte;
      out[p + 1] = 1;
      out.set(f.payload, p + 2);
    }
    p += bodySize;
    new DataView(out.buffer).setUint32(p, 11 + bodySize);
    p += 4;
  }
  return new FlvParser().push(out).tags;
}
