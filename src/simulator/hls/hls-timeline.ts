// One room's live HLS stream in one format: a real-time sliding window of segments cut from a looping clip, with faults.
import { crc32 } from 'node:zlib';
import { boxes, child, setDecodeTime } from '../../hls/mp4-boxes.js';
import { TS_PACKET, payloadStart, pesTimes, writeTimestamp } from '../../hls/ts-packets.js';
import type { SimRoom } from '../room.js';
import { type HlsClip, type HlsFormat, hlsClips, type SimCodec } from './hls-clips.js';

/** Segments listed in the playlist (the sliding window). */
export const WINDOW = 6;
/**
 * The first media sequence number: epoch-scale like the service's (323066244 in a 2025-09 capture,
 * test/fixtures/bili-real/hls/shadowreplay_media_playlist_fmp4_EXT-BILI-AUX_2025-09.m3u8), from the stream's start.
 */
const seqStart = (t0: number): number => Math.floor(t0 / 1000) - 1_400_000_000;

interface Built {
  bytes: Buffer;
  duration: number;
  title: string;
  clip: number;
  /** #EXT-BILI-AUX: the first video frame's presentation time (ms) and whether the segment starts on a keyframe. */
  ptsMs: number;
  keyframe: boolean;
}

export class HlsTimeline {
  readonly segMs: number;
  private readonly t0: number;
  private seqOffset: number;
  /** After a sequence reset, the window starts at this content index. */
  private floor = 0;
  private readonly switches: { from: number; clip: number }[];
  private readonly built = new Map<number, Built>();
  private lastBuilt = -1;
  private readonly cc = new Map<number, number>();
  private readonly recentServed: number[] = [];
  /** Content indices answered with 404 (segment-404). */
  readonly missing = new Set<number>();
  /** Playlist URLs (by their trid) that stay frozen, and how many fresh trids still get frozen (playlist-stale). */
  private readonly frozen = new Map<string, string>();
  staleArmed = 0;
  playlist404 = 0;
  /** Segment responses still to be damaged (segment-corrupt). */
  corrupt = 0;
  readonly slow: { remaining: number; delayMs: number }[] = [];

  /** Whole seconds, at least every segment's duration (RFC 8216 §4.3.3.1). */
  private readonly targetDuration: number;

  constructor(readonly room: SimRoom, readonly format: HlsFormat, readonly codec: SimCodec = 'avc', now = Date.now()) {
    const clip = this.clips[0]!;
    this.segMs = (clip.periodSec / clip.segments.length) * 1000;
    this.targetDuration = Math.max(1, ...this.clips.flatMap((c) => c.segments.map((g) => Math.round(g.duration))));
    // Start with a full window, as a stream that has been live for a while.
    this.t0 = now - (WINDOW + 0.5) * this.segMs;
    this.seqOffset = seqStart(this.t0);
    this.switches = [{ from: 0, clip: room.clipIndex }];
  }

  /**
   * The room's content clip cut into HLS when it has one (real video; init-change then has no second clip and
   * keeps the same init section), else the committed 360p/480p clips.
   */
  private get clips(): HlsClip[] {
    const own = this.codec !== 'avc' ? undefined : this.room.content?.hls?.[this.format];
    return own ? [own] : hlsClips(this.format, this.codec);
  }

  /** The newest complete segment's content index. */
  liveIndex(now = Date.now()): number {
    return Math.floor((now - this.t0) / this.segMs) - 1;
  }

  clipAt(n: number): number {
    let clip = this.switches[0]!.clip;
    for (const s of this.switches) if (s.from <= n) clip = s.clip;
    return clip;
  }

  /** init-change: the next segment comes from the other clip (new resolution, new init section). */
  switchClip(now = Date.now()): void {
    const from = this.liveIndex(now) + 1;
    this.switches.push({ from, clip: this.clipAt(from) === 0 ? 1 : 0 });
  }

  /** sequence-reset: numbering restarts at 1 with the last two segments already served listed again under new numbers. */
  resetSequence(now = Date.now()): void {
    this.floor = Math.max(0, this.liveIndex(now) - 1);
    this.seqOffset = 1 - this.floor;
  }

  /** `h<unix seconds>.m4s` as the service names init sections (the second clip one second on). */
  initUri(clip: number): string {
    return `h${Math.floor(this.t0 / 1000) + clip}.m4s`;
  }

  initBytes(uri: string): Buffer | null {
    for (let i = 0; i < 2; i++) if (uri === this.initUri(i)) return this.clips[i % this.clips.length]!.init;
    return null;
  }

  segmentUri(seq: number): string {
    const r = this.room;
    return this.format === 'fmp4' ? `${seq}.m4s` : `live_${r.roomId}_${r.session}${this.codec === 'hevc' ? '_prohevc' : this.codec === 'av1' ? '_av1' : ''}-${seq}.ts`;
  }

  /** The playlist text for a request carrying `trid` (a frozen one answers the same text again). */
  playlist(trid: string, now = Date.now()): string {
    const frozen = this.frozen.get(trid);
    if (frozen !== undefined) return frozen;
    const live = this.liveIndex(now);
    const first = Math.max(this.floor, live - WINDOW + 1, 0);
    const lines = ['#EXTM3U', `#EXT-X-VERSION:${this.format === 'fmp4' ? 7 : 3}`, `#EXT-X-TARGETDURATION:${this.targetDuration}`, `#EXT-X-MEDIA-SEQUENCE:${first + this.seqOffset}`];
    // Switches whose discontinuity is no longer listed (RFC 8216 §6.2.2); one at the window's first segment is not written.
    const left = this.switches.filter((s, k) => k > 0 && s.from <= first).length;
    if (left > 0) lines.push(`#EXT-X-DISCONTINUITY-SEQUENCE:${left}`);
    let prevClip = -1;
    for (let n = first; n <= live; n++) {
      const seg = this.segment(n);
      if (seg.clip !== prevClip) {
        if (prevClip >= 0) lines.push('#EXT-X-DISCONTINUITY');
        if (this.format === 'fmp4') lines.push(`#EXT-X-MAP:URI="${this.initUri(seg.clip)}"`);
        prevClip = seg.clip;
      }
      // #EXT-BILI-AUX:<first frame PTS ms, hex>|K (starts on a keyframe) or N|<size hex>|<CRC-32 hex>, as the service writes it.
      lines.push(`#EXT-BILI-AUX:${seg.ptsMs.toString(16)}|${seg.keyframe ? 'K' : 'N'}|${seg.title}`);
      lines.push(`#EXTINF:${seg.duration.toFixed(2)},${seg.title}`, this.segmentUri(n + this.seqOffset));
    }
    const text = `${lines.join('\n')}\n`;
    if (this.staleArmed > 0 && trid !== '') {
      this.staleArmed--;
      this.frozen.set(trid, text);
    }
    return text;
  }

  /** Content index of a listed sequence number, or null when it is not (or no longer, or not yet) in the stream. */
  indexOf(seq: number, now = Date.now()): number | null {
    const n = seq - this.seqOffset;
    return n >= this.floor && n >= 0 && n <= this.liveIndex(now) && n > this.liveIndex(now) - 4 * WINDOW ? n : null;
  }

  /** Counts a served segment (once per content index) in the room's counters. */
  served(n: number): void {
    const c = this.room.counters;
    c.hlsSegmentsServed++;
    c.hlsBytesServed += this.segment(n).bytes.length;
    if (this.recentServed.includes(n)) return;
    this.recentServed.push(n);
    if (this.recentServed.length > 64) this.recentServed.shift();
    c.hlsMediaMsServed += this.segment(n).duration * 1000;
  }

  /** Segment n, built once and in order (TS continuity counters run on across segments). */
  segment(n: number): Built {
    const hit = this.built.get(n);
    if (hit) return hit;
    if (n > this.lastBuilt + 1 && n - this.lastBuilt <= 4 * WINDOW) for (let k = this.lastBuilt + 1; k < n; k++) this.segment(k);
    const clipIndex = this.clipAt(n);
    const clip = this.clips[clipIndex % this.clips.length]!;
    const per = clip.segments.length;
    const src = clip.segments[n % per]!;
    const loop = Math.floor(n / per);
    const bytes = Buffer.from(src.bytes);
    if (this.format === 'fmp4') this.shiftFmp4(bytes, clip, src.runs, loop, n);
    else this.shiftTs(bytes, Math.round(loop * clip.periodSec * 90_000));
    const video = src.runs.find((r) => clip.mp4?.tracks.find((t) => t.trackId === r.trackId)?.handler === 'vide');
    const scale = (video && clip.mp4?.tracks.find((t) => t.trackId === video.trackId)?.timescale) || 1000;
    const ptsMs = video ? Math.round(((video.baseDecodeTime + loop * Math.round(clip.periodSec * scale)) / scale) * 1000) : Math.round(n * this.segMs);
    const built = {
      bytes, duration: src.duration, title: `${bytes.length.toString(16)}|${crc32(bytes).toString(16)}`, clip: clipIndex, ptsMs, keyframe: true,
    };
    this.built.set(n, built);
    this.lastBuilt = Math.max(this.lastBuilt, n);
    for (const k of this.built.keys()) if (k < n - 4 * WINDOW) this.built.delete(k);
    return built;
  }

  private shiftFmp4(bytes: Buffer, clip: HlsClip, runs: HlsClip['segments'][number]['runs'], loop: number, n: number): void {
    for (const run of runs) {
      const scale = clip.mp4?.tracks.find((t) => t.trackId === run.trackId)?.timescale ?? 1000;
      setDecodeTime(bytes, run, run.baseDecodeTime + loop * Math.round(clip.periodSec * scale));
    }
    boxes(bytes).filter((b) => b.type === 'moof').forEach((moof, k, all) => {
      const mfhd = child(bytes, moof, 'mfhd');
      if (mfhd) bytes.writeUInt32BE((n * all.length + k + 1) >>> 0, mfhd.body + 4);
    });
  }

  /** Adds the loop offset to PCR, PTS and DTS, and renumbers continuity counters so they run on from the last segment. */
  private shiftTs(b: Buffer, offset: number): void {
    for (let p = 0; p + TS_PACKET <= b.length; p += TS_PACKET) {
      const pid = ((b[p + 1]! & 0x1f) << 8) | b[p + 2]!;
      const afc = (b[p + 3]! >> 4) & 0x03;
      if (afc & 0x01) {
        const cc = this.cc.get(pid) ?? 0;
        b[p + 3] = (b[p + 3]! & 0xf0) | cc;
        this.cc.set(pid, (cc + 1) & 0x0f);
      }
      if (afc & 0x02 && b[p + 4]! >= 7 && b[p + 5]! & 0x10) {
        const q = p + 6;
        const base = b[q]! * 2 ** 25 + (b[q + 1]! << 17) + (b[q + 2]! << 9) + (b[q + 3]! << 1) + (b[q + 4]! >> 7);
        const v = (base + offset) % 2 ** 33;
        b[q] = Math.floor(v / 2 ** 25) & 0xff;
        b[q + 1] = Math.floor(v / 2 ** 17) & 0xff;
        b[q + 2] = Math.floor(v / 2 ** 9) & 0xff;
        b[q + 3] = Math.floor(v / 2) & 0xff;
        b[q + 4] = ((v & 1) << 7) | (b[q + 4]! & 0x7f);
      }
      const s = payloadStart(b, p);
      if (s < 0 || !(b[p + 1]! & 0x40)) continue;
      const t = pesTimes(b, s, p + TS_PACKET);
      if (!t) continue;
      writeTimestamp(b, s + 9, t.pts + offset);
      if (b[s + 7]! >> 6 === 0x03) writeTimestamp(b, s + 14, t.dts + offset);
    }
  }
}

/** The room's timeline for `format` and codec (one per pair), created on first use and renewed with every new live session. */
export function timelineOf(room: SimRoom, format: HlsFormat, codec: SimCodec | boolean = 'avc'): HlsTimeline {
  if (room.hls.session !== room.session) room.hls = { session: room.session };
  const c: SimCodec = codec === true ? 'hevc' : codec === false ? 'avc' : codec;
  const key = c === 'avc' ? format : (`${format}-${c}` as const);
  return (room.hls[key] ??= new HlsTimeline(room, format, c));
}
