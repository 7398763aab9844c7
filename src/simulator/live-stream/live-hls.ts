// The live stream's fMP4 HLS: playlist window, init section and segments muxed from the same FLV frames (SEI included).
import { crc32 } from 'node:zlib';
import { type Clip, clips, roomClip } from '../clips.js';
import { SEI_SIZE, writeTag } from '../flv-out.js';
import { hlsClips } from '../hls/hls-clips.js';
import type { SimRoom } from '../room.js';
import { muxFragment, type MuxSample } from './fmp4-mux.js';
import { LIVE_SEQ_START, LIVE_WINDOW, type LiveStream } from './live-stream.js';

interface Source {
  clip: Clip;
  init: Buffer;
  video: { trackId: number; timescale: number };
  audio: { trackId: number; timescale: number };
  /** Keyframe times within one loop: segment g of a loop starts at keyframes[g]. */
  keyframes: number[];
}

/** The clip the HLS carries: the room's own (FLV) clip, or the other one while hls-foreign is armed. */
function source(room: SimRoom, stream: LiveStream): Source {
  const index = stream.hlsForeign ? 1 - room.clipIndex : room.clipIndex;
  const clip = stream.hlsForeign ? clips()[index]! : roomClip(room);
  const hls = clip === room.content && room.content?.hls?.fmp4 ? room.content.hls.fmp4 : hlsClips('fmp4')[index]!;
  const track = (handler: string) => {
    const t = hls.mp4!.tracks.find((x) => x.handler === handler)!;
    return { trackId: t.trackId, timescale: t.timescale };
  };
  const keyframes = clip.tags.filter((t) => t.video && t.body[0]! >> 4 === 1).map((t) => t.ts);
  return { clip, init: hls.init!, video: track('vide'), audio: track('soun'), keyframes };
}

/** Start and end (stream ms) of content index n. */
function span(src: Source, n: number): [number, number] {
  const per = src.keyframes.length;
  const loopBase = Math.floor(n / per) * src.clip.periodMs;
  const g = n % per;
  return [loopBase + src.keyframes[g]!, loopBase + (src.keyframes[g + 1] ?? src.clip.periodMs)];
}

/** The newest complete segment at stream position `pos` (-1: none yet). */
export function liveIndex(src: Source, pos: number): number {
  const per = src.keyframes.length;
  const loops = Math.floor(pos / src.clip.periodMs);
  const within = pos - loops * src.clip.periodMs;
  let done = 0;
  for (let g = 0; g < per; g++) if ((src.keyframes[g + 1] ?? src.clip.periodMs) <= within) done++;
  return loops * per + done - 1;
}

/** Every tag of the stream in [from, to), in send order, with its stream timestamp. */
function tagsIn(clip: Clip, from: number, to: number): { ts: number; tag: Clip['tags'][number] }[] {
  const out: { ts: number; tag: Clip['tags'][number] }[] = [];
  for (let base = Math.floor(from / clip.periodMs) * clip.periodMs; base < to; base += clip.periodMs) {
    for (const tag of clip.tags) {
      const ts = base + tag.ts;
      if (ts >= from && ts < to) out.push({ ts, tag });
    }
  }
  return out;
}

const toScale = (ms: number, scale: number): number => Math.round((ms * scale) / 1000);

function buildSegment(src: Source, n: number): Buffer {
  const [from, to] = span(src, n);
  // One tag past the end gives each track's last duration.
  const tags = tagsIn(src.clip, from, to + src.clip.periodMs / 2);
  const video: MuxSample[] = [];
  const audio: MuxSample[] = [];
  for (const { ts, tag } of tags) {
    const list = tag.video ? video : audio;
    const scale = tag.video ? src.video.timescale : src.audio.timescale;
    const prev = list.at(-1);
    if (prev && prev.duration === 0) prev.duration = toScale(ts, scale) - prev.dts;
    if (ts >= to) continue;
    if (tag.video) {
      // The frame exactly as the FLV sends it: the timestamp SEI after the 5-byte prefix, then the NAL units.
      const wire = Buffer.allocUnsafe(11 + tag.body.length + SEI_SIZE + 4);
      writeTag(wire, 0, 9, ts, tag.body, 0, true);
      const cts = tag.body.readIntBE(2, 3);
      video.push({ dts: toScale(ts, scale), duration: 0, cts: toScale(cts, scale), key: tag.body[0]! >> 4 === 1, bytes: wire.subarray(16, 11 + tag.body.length + SEI_SIZE) });
    } else {
      audio.push({ dts: toScale(ts, scale), duration: 0, cts: 0, key: true, bytes: tag.body.subarray(2) });
    }
  }
  return muxFragment(n + 1, [{ trackId: src.video.trackId, samples: video }, { trackId: src.audio.trackId, samples: audio }]);
}

export function initUri(stream: LiveStream): string {
  return `h${Math.floor(stream.startedAt / 1000)}${stream.hlsForeign ? 1 : 0}.m4s`;
}

/** The live playlist: the newest LIVE_WINDOW complete segments. */
export function livePlaylist(room: SimRoom, stream: LiveStream, now = Date.now()): string {
  const src = source(room, stream);
  const live = liveIndex(src, stream.position(now));
  const first = Math.max(0, live - LIVE_WINDOW + 1);
  const target = Math.max(1, Math.ceil(Math.max(...src.keyframes.map((k, g) => (src.keyframes[g + 1] ?? src.clip.periodMs) - k)) / 1000));
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', `#EXT-X-TARGETDURATION:${target}`, `#EXT-X-MEDIA-SEQUENCE:${first + LIVE_SEQ_START}`, `#EXT-X-MAP:URI="${initUri(stream)}"`];
  for (let n = first; n <= live; n++) {
    const bytes = segmentBytes(room, stream, n);
    const [from, to] = span(src, n);
    lines.push(`#EXTINF:${((to - from) / 1000).toFixed(3)},${bytes.length.toString(16)}|${crc32(bytes).toString(16)}`, `${n + LIVE_SEQ_START}.m4s`);
  }
  return `${lines.join('\n')}\n`;
}

export function liveInit(room: SimRoom, stream: LiveStream, uri: string): Buffer | null {
  return uri === initUri(stream) ? source(room, stream).init : null;
}

/** Segment `seq`'s bytes while the CDN still has it (listed, or left the list less than hlsRetentionSec ago). */
export function liveSegment(room: SimRoom, stream: LiveStream, seq: number, now = Date.now()): Buffer | null {
  const src = source(room, stream);
  const n = seq - LIVE_SEQ_START;
  const live = liveIndex(src, stream.position(now));
  if (n < 0 || n > live) return null;
  // Segment n left the list when segment n + LIVE_WINDOW was complete.
  const leftAt = span(src, n + LIVE_WINDOW)[1];
  if (n <= live - LIVE_WINDOW && stream.position(now) - leftAt > stream.hlsRetentionSec * 1000) return null;
  stream.hlsServed.add(n);
  return segmentBytes(room, stream, n);
}

function segmentBytes(room: SimRoom, stream: LiveStream, n: number): Buffer {
  const key = `${stream.hlsForeign ? 'f' : ''}${n}`;
  let bytes = stream.cache.get(key);
  if (!bytes) {
    bytes = buildSegment(source(room, stream), n);
    stream.cache.set(key, bytes);
    if (stream.cache.size > 64) stream.cache.delete(stream.cache.keys().next().value!);
  }
  return bytes;
}
