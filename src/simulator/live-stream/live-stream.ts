// One live stream on a shared clock: FLV connections and the fMP4 HLS window carry the same frames, and a record of what was sent.
import type { Clip } from '../clips.js';

/** Segments listed in the live playlist (as the committed HLS timeline). */
export const LIVE_WINDOW = 6;
/** Media sequence number of the stream's first segment. */
export const LIVE_SEQ_START = 1000;

export interface LiveStreamInit {
  /** Seconds the CDN keeps a segment after it leaves the playlist [30]. */
  hlsRetentionSec?: number;
  /** The stream began this many seconds before the room was created or went live [0]. */
  streamAgeSec?: number;
}

/**
 * A span of the stream carrying one clip (one set of parameters): from HLS content index `seg`, at stream position
 * `pos` (ms, a segment boundary), on. A header change starts a new one after every segment already listed (RFC 8216
 * §6.2.1: a listed segment never changes), with its own init section (EXT-X-MAP) after an EXT-X-DISCONTINUITY
 * (§4.3.2.3: a change of encoding parameters).
 */
export interface ClipEpoch {
  seg: number;
  pos: number;
  clipIndex: number;
  /** Unix seconds naming its init section (`h<seconds>.m4s`, one more than the epoch before at least). */
  initSec: number;
  /** header-change midStream: FLV responses already open switch to it at `pos` too; else only later responses carry it. */
  midStream: boolean;
  /** FLV responses of the room opened before the epoch was made (serials up to this). */
  serialsBefore: number;
}

/** One FLV response's span of the stream: the first and last video frame it sent (stream ms). */
export interface SentSpan {
  connection: number;
  firstVideoTs: number;
  lastVideoTs: number;
  videoFrames: number;
}

/**
 * A room's stream as the CDN has it: position 0 at `startedAt`, the clip looping from there. Every FLV response
 * starts at the keyframe before the live position (a GOP cache) with the stream's own timestamps; HLS segment n is
 * the stream's GOP n, listed once complete. The stream is a function of its position, so what was sent is kept
 * as spans of stream time, and tests rebuild the frames from them.
 */
export class LiveStream {
  startedAt: number;
  hlsRetentionSec: number;
  /** flv-outage: until this epoch ms the FLV endpoint refuses connections. */
  flvOutageUntil = 0;
  /** hls-foreign: the HLS window carries another clip's frames (content that cannot align with the FLV). */
  hlsForeign = false;
  /** playlist-stall: until `until` (epoch ms) every playlist request gets `text` (null: the live list). */
  playlistFrozen: { until: number; text: string | null } | null = null;
  readonly flvSent: SentSpan[] = [];
  /** Content indices of the HLS segments answered 200. */
  readonly hlsServed = new Set<number>();
  /** Segment bytes by content index (a few, rebuilt on demand). */
  readonly cache = new Map<string, Buffer>();
  /** The clips of the stream in order (header changes); the first starts at position 0. */
  readonly epochs: ClipEpoch[] = [];

  constructor(init: LiveStreamInit, now = Date.now(), clipIndex = 0) {
    this.hlsRetentionSec = init.hlsRetentionSec ?? 30;
    this.startedAt = now - (init.streamAgeSec ?? 0) * 1000;
    this.epochs.push(this.firstEpoch(clipIndex));
  }

  /** A new live session: the stream starts again at position 0, with the room's clip of now. */
  restart(now = Date.now(), clipIndex = 0): void {
    this.startedAt = now;
    this.flvSent.length = 0;
    this.hlsServed.clear();
    this.cache.clear();
    this.epochs.length = 0;
    this.epochs.push(this.firstEpoch(clipIndex));
  }

  private firstEpoch(clipIndex: number): ClipEpoch {
    return { seg: 0, pos: 0, clipIndex, initSec: Math.floor(this.startedAt / 1000), midStream: false, serialsBefore: 0 };
  }

  /** The epoch that holds stream position `pos`. */
  epochAt(pos: number): ClipEpoch {
    let e = this.epochs[0]!;
    for (const x of this.epochs) if (x.pos <= pos) e = x;
    return e;
  }

  /** The epoch that holds HLS content index `n`. */
  epochOfSegment(n: number): ClipEpoch {
    let e = this.epochs[0]!;
    for (const x of this.epochs) if (x.seg <= n) e = x;
    return e;
  }

  position(now = Date.now()): number {
    return now - this.startedAt;
  }

  /**
   * Where a new FLV response starts: the loop and tag index of the last keyframe at or before the live position,
   * within `epoch` (the clip `clip` plays from the epoch's position on).
   */
  gopStart(clip: Clip, epoch: ClipEpoch = this.epochs[0]!, now = Date.now()): { loopBase: number; idx: number; position: number } {
    const pos = Math.max(epoch.pos, this.position(now));
    const loop = Math.floor((pos - epoch.pos) / clip.periodMs);
    const within = pos - epoch.pos - loop * clip.periodMs;
    let idx = 0;
    clip.tags.forEach((t, i) => {
      if (t.video && t.body[0]! >> 4 === 1 && t.ts <= within) idx = i;
    });
    return { loopBase: epoch.pos + loop * clip.periodMs, idx, position: pos };
  }

  /** Notes a video frame sent on FLV response `connection`. */
  sentVideo(connection: number, ts: number): void {
    let span = this.flvSent.at(-1);
    if (span?.connection !== connection) {
      span = { connection, firstVideoTs: ts, lastVideoTs: ts, videoFrames: 0 };
      this.flvSent.push(span);
      if (this.flvSent.length > 1000) this.flvSent.shift();
    }
    span.lastVideoTs = ts;
    span.videoFrames++;
  }

  /** Whether the FLV endpoint is down (flv-outage). */
  flvDown(now = Date.now()): boolean {
    return now < this.flvOutageUntil;
  }

  toJSON(): Record<string, unknown> {
    return {
      startedAt: this.startedAt, hlsRetentionSec: this.hlsRetentionSec, flvOutageUntil: this.flvOutageUntil, hlsForeign: this.hlsForeign,
      flvSent: this.flvSent, hlsServed: [...this.hlsServed].sort((a, b) => a - b), epochs: this.epochs,
    };
  }
}
