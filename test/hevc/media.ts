// HEVC test helpers: a full decode with ffprobe (-count_frames), the onMetaData of a written file, the video codec byte.
import { readFileSync } from 'node:fs';
import type { AmfValue } from '../../src/flv/amf.js';
import { legacyToEnhanced } from '../../src/flv/codecs/video-format.js';
import { onMetaDataMap } from '../../src/flv/metadata.js';
import { FlvParser } from '../../src/flv/parser.js';
import { TagType } from '../../src/flv/tag.js';
import { probeStreams } from '../support/media-tools.js';

export interface Decoded {
  /** ffprobe's stderr at -v error over a full decode (empty = clean). */
  errors: string;
  codecs: string[];
  /** Decoded video frames. */
  videoFrames: number;
  duration: number;
  resolution: string;
}

/** Decodes every frame (`-count_frames`): a file that only demuxes is not enough. */
export async function decode(path: string): Promise<Decoded> {
  const r = await probeStreams(path, 'frames');
  const video = r.streams.find((s) => s.codec_type === 'video');
  return {
    errors: r.errors, codecs: r.streams.map((s) => s.codec_name).sort(), videoFrames: Number(video?.nb_read_frames ?? 0),
    duration: r.duration, resolution: r.resolution,
  };
}

/** The onMetaData map of a file's first script tag. */
export function metadataOf(path: string): Map<string, AmfValue> {
  const { tags } = new FlvParser().push(readFileSync(path));
  const map = onMetaDataMap(tags.find((t) => t.type === TagType.Script)?.script);
  if (!map) throw new Error(`${path} has no onMetaData`);
  return map;
}

/** Keyframe times of the onMetaData index (brec's `keyframes.times`). */
export function keyframeTimes(path: string): number[] {
  const kf = metadataOf(path).get('keyframes');
  if (!kf || (kf.type !== 'Object' && kf.type !== 'EcmaArray')) return [];
  const times = kf.value.get('times');
  return times?.type === 'StrictArray' ? times.value.map((v) => (v.type === 'Number' ? v.value : Number.NaN)) : [];
}

/** Byte 0 of the first video tag body in the raw file (0x1c codec 12 key, 0x90 Enhanced SequenceStart key). */
export function firstVideoByte(path: string): number {
  const buf = readFileSync(path);
  for (let pos = 13; pos + 11 < buf.length;) {
    const size = buf.readUIntBE(pos + 1, 3);
    if (buf[pos] === TagType.Video) return buf[pos + 11]!;
    pos += 11 + size + 4;
  }
  return -1;
}

/** The same FLV with each tag body passed through `map` (headers and back-pointers recomputed; no repair). */
export function mapTagBodies(flv: Buffer, map: (type: number, body: Buffer) => Buffer): Buffer {
  const parts: Buffer[] = [flv.subarray(0, 13)];
  for (let pos = 13; pos + 11 <= flv.length;) {
    const size = flv.readUIntBE(pos + 1, 3);
    if (pos + 11 + size + 4 > flv.length) break;
    const out = map(flv[pos]!, flv.subarray(pos + 11, pos + 11 + size));
    const head = Buffer.from(flv.subarray(pos, pos + 11));
    head.writeUIntBE(out.length, 1, 3);
    const prev = Buffer.alloc(4);
    prev.writeUInt32BE(out.length + 11);
    parts.push(head, out, prev);
    pos += 11 + size + 4;
  }
  return Buffer.concat(parts);
}

/** The same FLV with every codec-12 video tag rewritten in Enhanced form, nothing else touched (no repair). */
export const toEnhancedRaw = (flv: Buffer): Buffer =>
  mapTagBodies(flv, (type, body) => (type === TagType.Video ? Buffer.from(legacyToEnhanced(body)) : body));
