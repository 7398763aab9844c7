// Simulator clips: FLV files (committed H.264 and HEVC, generated or the user's own) parsed once into loopable tag lists.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { encodeAmf } from '../flv/amf.js';
import { videoHeaderInfo } from '../flv/codecs/video-header.js';
import { getNumber, makeOnMetaData, onMetaDataMap } from '../flv/metadata.js';
import { FlvParser } from '../flv/parser.js';
import { TagFlag, TagType } from '../flv/tag.js';
import { packageRoot } from '../paths.js';
import { CLIP_FILES, HEVC_CLIP_FILES } from './clip-files.js';
import { SEI_SIZE } from './flv-out.js';
import type { HlsClip, HlsFormat } from './hls/hls-clips.js';

export interface ClipTag {
  type: number;
  /** Milliseconds from the start of the loop, in [0, periodMs). */
  ts: number;
  body: Buffer;
  /** A video data tag: it gets the timestamp SEI, and filler NALUs when padding is asked for. */
  video: boolean;
}

export interface Clip {
  name: string;
  /** The FLV file the clip was read from. */
  path: string;
  width: number;
  height: number;
  scriptBody: Buffer;
  videoHeader: Buffer;
  audioHeader: Buffer;
  /** Data tags of one loop in send order; every loop starts with a keyframe. */
  tags: ClipTag[];
  periodMs: number;
  /** Bytes one loop takes on the wire (tag headers and PreviousTagSize included, SEIs not). */
  loopBytes: number;
  videoTags: number;
  /** What the clip sends per second without filler, SEIs included: its own bitrate. */
  kbps: number;
  /** The same loop cut into HLS segments, for rooms that offer HLS (see hls/real-hls-clips.ts); else the committed HLS clips. */
  hls?: Partial<Record<HlsFormat, HlsClip>>;
}

const SIZES: Record<string, [number, number]> = { 'clip-360p.flv': [640, 360], 'clip-480p.flv': [854, 480] };

export function clipPath(name: string): string {
  return join(packageRoot, 'src', 'simulator', 'clips', name);
}

/**
 * Parses an FLV file into one loop: data before the first video keyframe is dropped and timestamps start at 0.
 * Width and height come from onMetaData when present, else from the video sequence header (AVC or HEVC). The whole file is kept in memory.
 */
export function loadClipFile(path: string, size?: [number, number]): Clip {
  const name = basename(path);
  const { tags, error } = new FlvParser().push(readFileSync(path));
  if (error && tags.length === 0) throw new Error(`Clip ${name} does not parse: ${error.message}`);
  const videoHeader = tags.find((t) => t.type === TagType.Video && t.flag & TagFlag.Header);
  const audioHeader = tags.find((t) => t.type === TagType.Audio && t.flag & TagFlag.Header);
  if (!videoHeader?.data || !audioHeader?.data) throw new Error(`Clip ${name} lacks audio and video sequence headers`);
  const all = tags.filter((t) => (t.type === TagType.Video || t.type === TagType.Audio) && (t.flag & (TagFlag.Header | TagFlag.End)) === 0);
  const start = all.findIndex((t) => t.type === TagType.Video && t.flag & TagFlag.Keyframe);
  if (start < 0) throw new Error(`Clip ${name} has no video keyframe`);
  const t0 = all[start]!.timestamp;
  const data = all.slice(start).filter((t) => t.timestamp >= t0);
  const videoTs = data.filter((t) => t.type === TagType.Video).map((t) => t.timestamp - t0);
  const frame = videoTs.length > 1 ? Math.max(1, videoTs[1]! - videoTs[0]!) : 40;
  // One period = the video frames' span plus one frame; audio past it would overlap the next loop.
  const periodMs = videoTs.at(-1)! + frame;
  const loop: ClipTag[] = data
    .filter((t) => t.timestamp - t0 < periodMs)
    .map((t) => ({ type: t.type, ts: t.timestamp - t0, body: Buffer.from(t.data!), video: t.type === TagType.Video }));
  const source = onMetaDataMap(tags.find((t) => t.type === TagType.Script)?.script);
  const header = videoHeaderInfo(videoHeader.data);
  const [width, height] = size ?? [
    (source ? getNumber(source, 'width') : undefined) ?? header?.width ?? 0,
    (source ? getNumber(source, 'height') : undefined) ?? header?.height ?? 0,
  ];
  const meta = new Map([
    ['width', { type: 'Number' as const, value: width }],
    ['height', { type: 'Number' as const, value: height }],
    ['framerate', { type: 'Number' as const, value: 1000 / frame }],
    ['videocodecid', { type: 'Number' as const, value: videoHeader.data[0]! & 0x0f }],
    ['audiocodecid', { type: 'Number' as const, value: audioHeader.data[0]! >> 4 }],
    ['encoder', { type: 'String' as const, value: 'liverec-simulator' }],
  ]);
  const loopBytes = loop.reduce((n, t) => n + 15 + t.body.length, 0);
  const videoTags = loop.filter((t) => t.video).length;
  return {
    name,
    path,
    width,
    height,
    scriptBody: encodeAmf(makeOnMetaData(meta)),
    videoHeader: Buffer.from(videoHeader.data),
    audioHeader: Buffer.from(audioHeader.data),
    tags: loop,
    periodMs,
    loopBytes,
    videoTags,
    kbps: ((loopBytes + videoTags * SEI_SIZE) * 8) / periodMs,
  };
}

export function loadClip(name: string): Clip {
  return loadClipFile(clipPath(name), SIZES[name]);
}

let cache: Clip[] | null = null;
let hevcCache: Clip[] | null = null;

/** Both committed clips (index 0: 360p, 1: 480p), loaded on first use; `hevc` = the codec-12 HEVC pair. */
export function clips(hevc = false): Clip[] {
  if (hevc) return (hevcCache ??= HEVC_CLIP_FILES.map(loadClip));
  cache ??= CLIP_FILES.map(loadClip);
  return cache;
}

/**
 * The clip a room sends now: its content clip (nearest its bitrate) or a committed one; index 1 after a header
 * change. `hevc` (a `_prohevc` URL, or an avc URL after a codec switch): the committed HEVC clip of that index.
 */
export function roomClip(room: { clipIndex: number; content: Clip | null }, hevc = false): Clip {
  if (hevc) return clips(true)[room.clipIndex]!;
  return room.clipIndex === 0 && room.content ? room.content : clips()[room.clipIndex]!;
}

/** The clip of `set` whose own bitrate is nearest `kbps` (by ratio), or null for an empty set. */
export function nearestClip(set: readonly Clip[], kbps: number): Clip | null {
  let best: Clip | null = null;
  for (const c of set) if (!best || Math.abs(Math.log(c.kbps / kbps)) < Math.abs(Math.log(best.kbps / kbps))) best = c;
  return best;
}
