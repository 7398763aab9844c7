// The committed AV1 clips (360p, 3.84 s loop; made by generate-av1-clips.ts) and the FLV one as a loopable simulator clip.
import { readFileSync } from 'node:fs';
import { encodeAmf } from '../flv/amf.js';
import { makeOnMetaData } from '../flv/metadata.js';
import { TagType } from '../flv/tag.js';
import { type Clip, type ClipTag, clipPath } from './clips.js';
import { SEI_SIZE } from './flv-out.js';

export const AV1_CLIPS = { fmp4: 'clip-360p-av1.fmp4', flv: 'clip-360p-av1.flv' } as const;

let cached: Clip | null = null;

/**
 * The Enhanced FLV AV1 clip (`av01` FourCC) as one loop. Read tag by tag here: liverec's FLV parser, which the other
 * clips go through, reads AVC and HEVC only.
 */
export function av1FlvClip(): Clip {
  if (cached) return cached;
  const path = clipPath(AV1_CLIPS.flv);
  const buf = readFileSync(path);
  const tags: { type: number; ts: number; body: Buffer }[] = [];
  for (let p = 13; p + 11 <= buf.length;) {
    const size = buf.readUIntBE(p + 1, 3);
    const ts = buf.readUIntBE(p + 4, 3) | (buf[p + 7]! << 24);
    tags.push({ type: buf[p]!, ts, body: buf.subarray(p + 11, p + 11 + size) });
    p += 11 + size + 4;
  }
  const isHeader = (t: { type: number; body: Buffer }): boolean =>
    t.type === TagType.Video ? (t.body[0]! & 0x0f) === 0 : t.type === TagType.Audio && t.body[1] === 0;
  const videoHeader = tags.find((t) => t.type === TagType.Video && isHeader(t))!;
  const audioHeader = tags.find((t) => t.type === TagType.Audio && isHeader(t))!;
  const data = tags.filter((t) => (t.type === TagType.Video || t.type === TagType.Audio) && !isHeader(t));
  const videoTs = data.filter((t) => t.type === TagType.Video).map((t) => t.ts);
  const periodMs = videoTs.at(-1)! + (videoTs[1]! - videoTs[0]!);
  const loop: ClipTag[] = data.filter((t) => t.ts < periodMs).map((t) => ({ type: t.type, ts: t.ts, body: Buffer.from(t.body), video: t.type === TagType.Video }));
  const meta = new Map([
    ['width', { type: 'Number' as const, value: 640 }], ['height', { type: 'Number' as const, value: 360 }],
    ['framerate', { type: 'Number' as const, value: 25 }], ['videocodecid', { type: 'Number' as const, value: 0x61763031 }],
    ['audiocodecid', { type: 'Number' as const, value: 10 }], ['encoder', { type: 'String' as const, value: 'liverec-simulator' }],
  ]);
  const loopBytes = loop.reduce((n, t) => n + 15 + t.body.length, 0);
  const videoTags = loop.filter((t) => t.video).length;
  cached = {
    name: AV1_CLIPS.flv, path, width: 640, height: 360, scriptBody: encodeAmf(makeOnMetaData(meta)),
    videoHeader: Buffer.from(videoHeader.body), audioHeader: Buffer.from(audioHeader.body), tags: loop, periodMs, loopBytes, videoTags,
    kbps: ((loopBytes + videoTags * SEI_SIZE) * 8) / periodMs,
  };
  return cached;
}
