// The live stream's fMP4 HLS: playlist window, init sections and segments muxed from the same FLV frames (SEI included).
import { crc32 } from 'node:zlib';
import { type Clip, clips, roomClip } from '../clips.js';
import { SEI_SIZE, writeTag } from '../flv-out.js';
import { hlsClips } from '../hls/hls-clips.js';
import type { SimRoom } from '../room.js';
import { muxFragment, type MuxSample } from './fmp4-mux.js';
import { type ClipEpoch, LIVE_SEQ_START, LIVE_WINDOW, type LiveStream } from './live-stream.js';

interface Source {
  clip: Clip;
  init: Buffer;
  video: { trackId: number; timescale: number };
  audio: { trackId: number; timescale: number };
  /** Keyframe times within one loop: segment g of a loop starts at keyframes[g]. */
  keyframes: number[];
}

const keyframesOf = new WeakMap<Clip, number[]>();

/** The clip an epoch's HLS carries: its own (as the FLV), or the other one while hls-foreign is armed. */
function source(room: SimRoom, stream: LiveStream, epoch: ClipEpoch): Source {
  const own = epoch.clipIndex;
  const index = stream.hlsForeign ? 1 - own : own;
  const clip = roomClip({ clipIndex: index, content: room.content });
  const hls = clip === room.content && room.content?.hls?.fmp4 ? room.content.hls.fmp4 : hlsClips('fmp4')[index]!;
  const track = (handler: string) => {
    const t = hls.mp4!.tracks.find((x) => x.handler === handler)!;
    return { trackId: t.trackId, timescale: t.timescale };
  };
  let keyframes = keyframesOf.get(clip);
  if (!keyframes) keyframesOf.set(clip, (keyframes = clip.tags.filter((t) => t.video && t.body[0]! >> 4 === 1).map((t) => t.ts)));
  return { clip, init: hls.init!, video: track('vide'), audio: track('soun'), keyframes };
}

/** Start and end (ms from the epoch's start) of the epoch's content index m. */
function localSpan(src: Source, m: number): [number, number] {
  const per = src.keyframes.length;
  const loopBase = Math.floor(m / per) * src.clip.periodMs;
  const g = m % per;
  return [loopBase + src.keyframes[g]!, loopBase + (src.keyframes[g + 1] ?? src.clip.periodMs)];
}

/** The newest complete segment of an epoch at `within` ms from its start (-1: none yet). */
function localLive(src: Source, within: number): number {
  const per = src.keyframes.length;
  const loops = Math.floor(within / src.clip.periodMs);
  const rest = within - loops * src.clip.periodMs;
  let done = 0;
  for (let g = 0; g < per; g++) if ((src.keyframes[g + 1] ?? src.clip.periodMs) <= rest) done++;
  return loops * per + done - 1;
}

interface Seg {
  epoch: ClipEpoch;
  src: Source;
  /** Stream ms. */
  from: number;
  to: number;
}

/** Content index n of the stream: its epoch, clip and span. */
function segment(room: SimRoom, stream: LiveStream, n: number): Seg {
  const epoch = stream.epochOfSegment(n);
  const src = source(room, stream, epoch);
  const [a, b] = localSpan(src, n - epoch.seg);
  return { epoch, src, from: epoch.pos + a, to: epoch.pos + b };
}

/** The newest complete segment at stream position `pos` (-1: none yet). */
export function liveIndex(room: SimRoom, stream: LiveStream, pos: number): number {
  const epoch = stream.epochAt(pos);
  return epoch.seg + localLive(source(room, stream, epoch), pos - epoch.pos);
}

/**
 * header-change on a live-stream room: the room's clip (already flipped) plays from the first segment boundary
 * after every segment listed so far and, for `midStream`, after every frame an open FLV response has sent (`sentUpTo`,
 * stream ms) and `afterMs`; open responses then switch there too (media-connection.ts). Nothing listed or sent changes.
 */
export function startEpoch(room: SimRoom, stream: LiveStream, o: { midStream: boolean; afterMs: number; sentUpTo: number }, now = Date.now()): ClipEpoch {
  const cur = stream.epochs.at(-1)!;
  const pos = stream.position(now);
  const min = o.midStream ? Math.max(pos + o.afterMs, o.sentUpTo) : 0;
  let n = Math.max(liveIndex(room, stream, pos) + 1, cur.seg + 1);
  while (segment(room, stream, n).from < min) n++;
  const at = segment(room, stream, n).from;
  const epoch: ClipEpoch = {
    seg: n, pos: at, clipIndex: room.clipIndex, initSec: Math.max(cur.initSec + 1, Math.floor((stream.startedAt + at) / 1000)),
    midStream: o.midStream, serialsBefore: room.counters.streamConnections,
  };
  stream.epochs.push(epoch);
  return epoch;
}

const toScale = (ms: number, scale: number): number => Math.round((ms * scale) / 1000);

/** Every tag of the epoch's clip in [from, to) (stream ms), in send order, with its stream timestamp. */
function tagsIn(clip: Clip, origin: number, from: number, to: number): { ts: number; tag: Clip['tags'][number] }[] {
  const out: { ts: number; tag: Clip['tags'][number] }[] = [];
  for (let base = origin + Math.floor((from - origin) / clip.periodMs) * clip.periodMs; base < to; base += clip.periodMs) {
    for (const tag of clip.tags) {
      const ts = base + tag.ts;
      if (ts >= from && ts < to) out.push({ ts, tag });
    }
  }
  return out;
}

function buildSegment(seg: Seg, n: number): Buffer {
  const { src, from, to } = seg;
  // One tag past the end gives each track's last duration.
  const tags = tagsIn(src.clip, seg.epoch.pos, from, to + src.clip.periodMs / 2);
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

/** `h<unix seconds>.m4s` per epoch, as the service names init sections (a trailing 1 while hls-foreign is armed). */
export function initUri(stream: LiveStream, epoch: ClipEpoch = stream.epochs[0]!): string {
  return `h${epoch.initSec}${stream.hlsForeign ? 1 : 0}.m4s`;
}

/**
 * The live playlist: the newest LIVE_WINDOW complete segments, an EXT-X-DISCONTINUITY and a new EXT-X-MAP where an
 * epoch starts, and EXT-X-DISCONTINUITY-SEQUENCE counting the epochs that began before the window (RFC 8216 §6.2.2).
 */
export function livePlaylist(room: SimRoom, stream: LiveStream, now = Date.now()): string {
  const live = liveIndex(room, stream, stream.position(now));
  const first = Math.max(0, live - LIVE_WINDOW + 1);
  // Whole seconds at least as long as any segment of any clip the stream carried (RFC 8216 §4.3.3.1), so it never changes.
  const gops = stream.epochs.flatMap((e) => {
    const src = source(room, stream, e);
    return src.keyframes.map((k, g) => (src.keyframes[g + 1] ?? src.clip.periodMs) - k);
  });
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', `#EXT-X-TARGETDURATION:${Math.max(1, Math.ceil(Math.max(...gops) / 1000))}`, `#EXT-X-MEDIA-SEQUENCE:${first + LIVE_SEQ_START}`];
  // Every epoch after the first opens with a discontinuity; those whose first segment left the list are counted.
  const left = stream.epochs.filter((e, k) => k > 0 && e.seg < first).length;
  if (left > 0) lines.push(`#EXT-X-DISCONTINUITY-SEQUENCE:${left}`);
  let map: ClipEpoch | null = null;
  for (let n = first; n <= live; n++) {
    const seg = segment(room, stream, n);
    if (seg.epoch.seg === n && n > 0) lines.push('#EXT-X-DISCONTINUITY');
    if (seg.epoch !== map) lines.push(`#EXT-X-MAP:URI="${initUri(stream, (map = seg.epoch))}"`);
    const bytes = segmentBytes(room, stream, n);
    lines.push(`#EXTINF:${((seg.to - seg.from) / 1000).toFixed(3)},${bytes.length.toString(16)}|${crc32(bytes).toString(16)}`, `${n + LIVE_SEQ_START}.m4s`);
  }
  if (map === null) lines.push(`#EXT-X-MAP:URI="${initUri(stream, stream.epochAt(stream.position(now)))}"`);
  return `${lines.join('\n')}\n`;
}

/** The init section named `uri`: any epoch's, so a segment fetched after its epoch ended is still readable. */
export function liveInit(room: SimRoom, stream: LiveStream, uri: string): Buffer | null {
  const epoch = stream.epochs.find((e) => initUri(stream, e) === uri);
  return epoch ? source(room, stream, epoch).init : null;
}

/** Segment `seq`'s bytes while the CDN still has it (listed, or left the list less than hlsRetentionSec ago). */
export function liveSegment(room: SimRoom, stream: LiveStream, seq: number, now = Date.now()): Buffer | null {
  const n = seq - LIVE_SEQ_START;
  const pos = stream.position(now);
  const live = liveIndex(room, stream, pos);
  if (n < 0 || n > live) return null;
  // Segment n left the list when segment n + LIVE_WINDOW was complete.
  const leftAt = segment(room, stream, n + LIVE_WINDOW).to;
  if (n <= live - LIVE_WINDOW && pos - leftAt > stream.hlsRetentionSec * 1000) return null;
  stream.hlsServed.add(n);
  return segmentBytes(room, stream, n);
}

/** Built once per content index: the epochs never change a segment up to the live edge, so neither does the cache. */
function segmentBytes(room: SimRoom, stream: LiveStream, n: number): Buffer {
  const key = `${stream.hlsForeign ? 'f' : ''}${n}`;
  let bytes = stream.cache.get(key);
  if (!bytes) {
    bytes = buildSegment(segment(room, stream, n), n);
    stream.cache.set(key, bytes);
    if (stream.cache.size > 64) stream.cache.delete(stream.cache.keys().next().value!);
  }
  return bytes;
}
