// The committed H.264/AAC clips, parsed once into loopable tag lists (headers apart, one loop period).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeOnMetaData } from '../flv/metadata.js';
import { encodeAmf } from '../flv/amf.js';
import { FlvParser } from '../flv/parser.js';
import { TagFlag, TagType } from '../flv/tag.js';
import { packageRoot } from '../paths.js';
import { CLIP_FILES } from './clip-files.js';

export interface ClipTag {
  type: number;
  /** Milliseconds from the start of the loop, in [0, periodMs). */
  ts: number;
  body: Buffer;
  /** A video data tag: bitrate padding (filler NALUs) goes into these. */
  video: boolean;
}

export interface Clip {
  name: string;
  width: number;
  height: number;
  scriptBody: Buffer;
  videoHeader: Buffer;
  audioHeader: Buffer;
  /** Data tags of one loop in send order; every loop starts with an IDR frame. */
  tags: ClipTag[];
  periodMs: number;
  /** Bytes one loop takes on the wire (tag headers and PreviousTagSize included). */
  loopBytes: number;
  videoTags: number;
}

const SIZES: Record<string, [number, number]> = { 'clip-360p.flv': [640, 360], 'clip-480p.flv': [854, 480] };

export function clipPath(name: string): string {
  return join(packageRoot, 'src', 'simulator', 'clips', name);
}

export function loadClip(name: string): Clip {
  const parser = new FlvParser();
  const { tags, error } = parser.push(readFileSync(clipPath(name)));
  if (error) throw new Error(`Simulator clip ${name} does not parse: ${error.message}`);
  const [width, height] = SIZES[name] ?? [0, 0];
  const videoHeader = tags.find((t) => t.type === TagType.Video && t.flag & TagFlag.Header);
  const audioHeader = tags.find((t) => t.type === TagType.Audio && t.flag & TagFlag.Header);
  if (!videoHeader?.data || !audioHeader?.data) throw new Error(`Simulator clip ${name} lacks A/V sequence headers`);
  const data = tags.filter((t) => (t.type === TagType.Video || t.type === TagType.Audio) && (t.flag & (TagFlag.Header | TagFlag.End)) === 0);
  const videoTs = data.filter((t) => t.type === TagType.Video).map((t) => t.timestamp);
  const frame = videoTs.length > 1 ? videoTs[1]! - videoTs[0]! : 40;
  // One period = the video frames' span plus one frame; audio past it would overlap the next loop.
  const periodMs = videoTs.at(-1)! - videoTs[0]! + frame;
  const loop: ClipTag[] = data
    .filter((t) => t.timestamp < periodMs)
    .map((t) => ({ type: t.type, ts: t.timestamp, body: Buffer.from(t.data!), video: t.type === TagType.Video }));
  const meta = new Map([
    ['width', { type: 'Number' as const, value: width }],
    ['height', { type: 'Number' as const, value: height }],
    ['framerate', { type: 'Number' as const, value: 1000 / frame }],
    ['videocodecid', { type: 'Number' as const, value: 7 }],
    ['audiocodecid', { type: 'Number' as const, value: 10 }],
    ['audiosamplerate', { type: 'Number' as const, value: 48000 }],
    ['stereo', { type: 'Boolean' as const, value: true }],
    ['encoder', { type: 'String' as const, value: 'liverec-simulator' }],
  ]);
  return {
    name,
    width,
    height,
    scriptBody: encodeAmf(makeOnMetaData(meta)),
    videoHeader: Buffer.from(videoHeader.data),
    audioHeader: Buffer.from(audioHeader.data),
    tags: loop,
    periodMs,
    loopBytes: loop.reduce((n, t) => n + 15 + t.body.length, 0),
    videoTags: loop.filter((t) => t.video).length,
  };
}

let cache: Clip[] | null = null;

/** Both clips (index 0: 360p, 1: 480p), loaded on first use. */
export function clips(): Clip[] {
  cache ??= CLIP_FILES.map(loadClip);
  return cache;
}
