// Writes FLV tags into a preallocated buffer: fresh timestamp per tag, optional filler NALU padding for bitrate.
import { writeTagHeader } from '../flv/tag-encoding.js';
import type { Clip } from './clips.js';

/** Smallest filler NALU: 4-byte length, NAL header (AVC 0x0C; HEVC 0x4C 0x01), the rbsp trailing byte. */
export const MIN_FILLER = 7;

/**
 * Every video frame carries an SEI "user data unregistered" NALU with its stream timestamp, as encoders do
 * with timecodes. Without it a looping clip repeats byte-identical GOPs, which brec's duplicate-chunk rule
 * rightly treats as resent CDN data. Layout: length(4) 0x06 type=5 size=28 uuid(16) 12 ASCII digits 0x80.
 * ASCII digits and a zero-free UUID keep the payload free of emulation-prevention sequences. HEVC (codec id
 * 12 bodies) uses a prefix SEI (two-byte header 0x4E 0x01) with 11 digits, so both sizes are equal.
 */
export const SEI_SIZE = 4 + 1 + 1 + 1 + 16 + 12 + 1;
const SEI_UUID = Buffer.from('6c6976657265632d73696d2d74696d65', 'hex'); // "liverec-sim-time"

/** Wire size of one tag (header + body + SEI for video frames + filler + PreviousTagSize). */
export function tagWireSize(bodyLength: number, filler: number, video = false): number {
  return 11 + bodyLength + (video ? SEI_SIZE : 0) + filler + 4;
}

function writeSei(out: Buffer, p: number, timestamp: number, hevc: boolean): void {
  out.writeUInt32BE(SEI_SIZE - 4, p);
  const h = hevc ? 2 : 1;
  if (hevc) out.set([0x4e, 0x01], p + 4);
  else out[p + 4] = 0x06;
  out[p + 4 + h] = 5;
  out[p + 5 + h] = 28 - (h - 1);
  SEI_UUID.copy(out, p + 6 + h);
  out.write(String(timestamp >>> 0).padStart(12 - (h - 1), '0'), p + 22 + h, 'latin1');
  out[p + 35] = 0x80;
}

/**
 * Writes one tag at `pos`; returns the position after it. `video` marks a video frame (not a sequence header):
 * it gets the timestamp SEI right after the 5-byte prefix. Filler is a valid H.264 or HEVC filler-data NALU.
 */
export function writeTag(out: Buffer, pos: number, type: number, timestamp: number, body: Buffer, filler: number, video = false): number {
  const sei = video ? SEI_SIZE : 0;
  const size = body.length + sei + filler;
  const hevc = video && (body[0]! & 0x0f) === 12;
  let p = writeTagHeader(out, pos, type, size, timestamp);
  if (video && body[0]! & 0x80) {
    // Enhanced FLV (AV1, `av01`): the timestamp goes into a padding OBU (type 15) after the temporal unit, which decoders skip.
    body.copy(out, p);
    p += body.length;
    out[p] = (15 << 3) | 0x02;
    out[p + 1] = SEI_SIZE - 2;
    SEI_UUID.copy(out, p + 2);
    out.write(String(timestamp >>> 0).padStart(SEI_SIZE - 18, '0'), p + 18, 'latin1');
    p += SEI_SIZE;
  } else if (video) {
    body.copy(out, p, 0, 5);
    writeSei(out, p + 5, timestamp, hevc);
    body.copy(out, p + 5 + sei, 5);
    p += body.length + sei;
  } else {
    body.copy(out, p);
    p += body.length;
  }
  if (filler > 0) {
    out.writeUInt32BE(filler - 4, p);
    if (hevc) out.set([0x4c, 0x01], p + 4);
    else out[p + 4] = 0x0c;
    out.fill(0xff, p + (hevc ? 6 : 5), p + filler - 1);
    out[p + filler - 1] = 0x80;
    p += filler;
  }
  out.writeUInt32BE(11 + size, p);
  return p + 4;
}

/** The script tag and both sequence headers of a clip at one timestamp (a stream start or a header change). */
export function headerTags(clip: Clip, timestamp: number): Buffer {
  const size =
    tagWireSize(clip.scriptBody.length, 0) + tagWireSize(clip.videoHeader.length, 0) + tagWireSize(clip.audioHeader.length, 0);
  const out = Buffer.allocUnsafe(size);
  let p = writeTag(out, 0, 18, timestamp, clip.scriptBody, 0);
  p = writeTag(out, p, 9, timestamp, clip.videoHeader, 0);
  writeTag(out, p, 8, timestamp, clip.audioHeader, 0);
  return out;
}

/** Filler bytes per video tag that lift a clip to `kbps`; 0 when the clip alone is already faster. */
export function fillerFor(clip: Clip, kbps: number): number {
  const wanted = (kbps * 1000) / 8 * (clip.periodMs / 1000);
  const extra = Math.floor((wanted - clip.loopBytes) / Math.max(1, clip.videoTags)) - SEI_SIZE;
  return extra >= MIN_FILLER ? extra : 0;
}
