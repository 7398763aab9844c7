// One open FLV response: a position in the looping clip, a virtual clock for pacing, and its injected faults.
import type { ServerResponse } from 'node:http';
import { FLV_FILE_HEADER } from '../flv/tag-encoding.js';
import { av1FlvClip } from './av1-clips.js';
import { type Clip, roomClip } from './clips.js';
import type { ConnectionFault } from './faults.js';
import { fillerFor, headerTags, tagWireSize, writeTag } from './flv-out.js';
import type { SimRoom } from './room.js';
import { liveStart } from './origin-variants.js';
import type { ClipEpoch } from './live-stream/live-stream.js';

/** Sent at once on connect, like a CDN's GOP cache, so a client has data immediately. */
const LEAD_MS = 1000;
/** A client this far behind gets nothing new until it catches up (the kernel buffer holds more). */
const MAX_BACKLOG = 2 * 1024 * 1024;

/** How far `mediaPosition` runs on past the last sent tag (the simulator's own event loop may be late). */
const POSITION_SLACK_MS = 1000;

type Scheduled = ConnectionFault & { at: number };

export class MediaConnection {
  private clip: Clip;
  private idx = 0;
  /** Virtual ms at which the current pass through the clip started. */
  private loopBase = 0;
  /** Virtual ms sent up to; advances with wall time, slower while slow, not at all while stalled. */
  private virtualNow = 0;
  private lastPump: number;
  private tsOffset = 0;
  private filler: number;
  private lastChunk: Buffer | null = null;
  /** Timestamp of the last tag sent, for the room's media-time counter (jumps are not counted as time). */
  private lastSentTs: number | null = null;
  private faults: Scheduled[] = [];
  private headerSwitchAt: number | null = null;
  private switchKind: 'size' | 'codec' = 'size';
  /** The clip pair in use: HEVC on a `_prohevc` URL, flipped while the room's codec is swapped. */
  private hevc: boolean;
  /** Media position (ms from this response's first tag, jumps excluded) of the last tag sent, and when it was sent. */
  private sentPosition: number | null = null;
  /**
   * Clip position of the first tag this response sent: a live-stream or variant room's response starts mid-clock (at
   * the live GOP), and a recorder's timeline starts at the first media timestamp of its file.
   */
  private firstPosition: number | null = null;
  private sentAt = 0;
  /** Pace of the last pump: 1 normally, below 1 while slow, 0 while stalled. */
  private pace = 1;
  /**
   * Virtual ms sent up to while slowed: it moves on from what was already sent at the slowed pace, so a slow link
   * trickles from its first tag (or from the lead already sent) instead of pausing until the clock catches up with it.
   */
  private slowTarget: number | null = null;
  /** 1-based number of this response among the room's FLV responses. */
  readonly serial: number;
  closed = false;

  /** An `_av1` URL: the Enhanced FLV AV1 clip, whatever the room's codec faults. */
  private readonly av1: boolean;
  /** A live-stream room: the clip epoch this response is in (it follows the stream's header changes, live-hls.ts). */
  private epoch: ClipEpoch | null = null;

  /** `variant`: the variant suffix of the URL ('' = the origin or an unnamed stream). */
  constructor(readonly room: SimRoom, private readonly res: ServerResponse, now: number, hevcUrl = false, av1Url = false, readonly variant = '') {
    this.connectedAt = now;
    this.lastPump = now;
    this.serial = room.counters.streamConnections + 1;
    this.hevc = hevcUrl !== room.codecSwapped;
    this.av1 = av1Url;
    this.clip = av1Url ? av1FlvClip() : roomClip(room, this.hevc);
    if (room.liveStream && !av1Url) {
      this.epoch = room.liveStream.epochAt(room.liveStream.position());
      this.clip = roomClip({ clipIndex: this.epoch.clipIndex, content: room.content }, this.hevc);
    }
    this.filler = this.fillerOf(this.clip);
    if (room.variants) {
      // Every response of a variant room joins one live clock at its last keyframe, so two of them carry the same frames at the same timestamps.
      const position = room.variants.livePosition(now);
      const start = liveStart(this.clip.tags, this.clip.periodMs, position);
      this.idx = start.idx;
      this.loopBase = start.loopBase;
      this.virtualNow = position - LEAD_MS;
    }
    this.write(Buffer.concat([FLV_FILE_HEADER, headerTags(this.clip, 0)]));
    if (room.liveStream) {
      // A live-stream room: start at the live GOP (a CDN's GOP cache), with the stream's own timestamps, no lead.
      const at = room.liveStream.gopStart(this.clip, this.epoch ?? undefined);
      this.idx = at.idx;
      this.loopBase = at.loopBase;
      this.virtualNow = at.position - LEAD_MS;
    }
  }

  readonly connectedAt: number;

  /** False once the response ended or the client hung up (even before the server saw the close event). */
  get open(): boolean {
    return !this.closed && !this.res.destroyed && this.res.socket?.destroyed !== true;
  }

  /** Schedules a fault `afterMs` from now (open responses) or from connect (new ones: now = connectedAt). */
  addFault(fault: ConnectionFault, now: number): void {
    const afterMs = 'afterMs' in fault ? fault.afterMs : 0;
    this.faults.push({ ...fault, at: now - this.connectedAt + afterMs });
  }

  /**
   * Injects another clip's headers into this response after `afterMs`: the room's current clip (header-change
   * midStream) or the same clip in the other codec (codec-switch midStream).
   */
  switchClipAt(afterMs: number, now: number, kind: 'size' | 'codec'): void {
    this.headerSwitchAt = now - this.connectedAt + afterMs;
    this.switchKind = kind;
  }

  /** Writes every tag that is due; called by the shared pacer tick. */
  pump(now: number): void {
    if (this.closed) return;
    const elapsed = now - this.connectedAt;
    const dt = now - this.lastPump;
    this.lastPump = now;
    let rate = 1;
    for (let i = 0; i < this.faults.length; i++) {
      const f = this.faults[i]!;
      if (elapsed < f.at) continue;
      if (f.kind === 'stream-cut') return this.cut();
      if (f.kind === 'timestamp-jump') {
        this.tsOffset += f.jumpMs;
        if (this.lastSentTs !== null) this.lastSentTs += f.jumpMs; // a jump is not media time
      }
      else if (f.kind === 'duplicate-chunk') {
        if (this.lastChunk) this.write(this.lastChunk);
      } else {
        // stall / slow: active until their duration ends.
        if (f.durationMs !== undefined && elapsed >= f.at + f.durationMs) {
          this.faults.splice(i--, 1);
          continue;
        }
        rate = f.kind === 'stall' ? 0 : Math.min(rate, (f.kbps ?? this.room.bitrateKbps / 10) / Math.max(1, this.room.bitrateKbps));
        continue;
      }
      this.faults.splice(i--, 1);
    }
    if (this.headerSwitchAt !== null && elapsed >= this.headerSwitchAt) {
      this.headerSwitchAt = null;
      this.switchClip();
    }
    this.virtualNow += dt * rate;
    this.pace = rate;
    if (rate === 1) this.slowTarget = null;
    // Slowed from connect, the send point starts at the response's first tag (a live room's GOP start lies up to the
    // lead ahead of its clock); slowed later, at the lead already sent.
    else this.slowTarget = (this.slowTarget ?? (this.sentPosition === null ? this.loopBase + this.clip.tags[this.idx]!.ts : this.virtualNow - dt * rate + LEAD_MS)) + dt * rate;
    if (rate === 0 || this.res.writableLength > MAX_BACKLOG) return;
    this.sendUpTo(rate === 1 ? this.virtualNow + LEAD_MS : this.slowTarget!);
  }

  /** The stream position of the next tag to send. */
  nextPosition(): number {
    return this.loopBase + this.clip.tags[this.idx]!.ts;
  }

  /** Sends what is due; a live-stream response crosses into the next clip epoch at its position, headers first. */
  private sendUpTo(target: number): void {
    for (;;) {
      const next = this.nextEpoch();
      if (!next || target < next.pos) return this.sendDue(target);
      this.sendDue(next.pos - 0.5);
      this.enterEpoch(next);
    }
  }

  /** The epoch after this response's that it carries: one a midStream change made, or any made after it opened. */
  private nextEpoch(): ClipEpoch | null {
    const epochs = this.room.liveStream?.epochs;
    if (!this.epoch || !epochs) return null;
    const k = epochs.indexOf(this.epoch);
    if (k < 0) return null;
    for (const e of epochs.slice(k + 1)) if (e.midStream || e.serialsBefore < this.serial) return e;
    return null;
  }

  private enterEpoch(e: ClipEpoch): void {
    this.epoch = e;
    this.clip = roomClip({ clipIndex: e.clipIndex, content: this.room.content }, this.hevc);
    this.filler = this.fillerOf(this.clip);
    this.idx = 0;
    this.loopBase = e.pos;
    this.write(headerTags(this.clip, (e.pos + this.tsOffset) | 0));
  }

  /**
   * The media position the stream has reached at `now`: that of the last tag sent, plus the time since while the
   * stream runs at full pace (the next tick sends exactly that; a stalled or slowed stream stays where it is).
   */
  mediaPosition(now: number): number | null {
    if (this.sentPosition === null) return null;
    return Math.round(this.sentPosition + (this.pace === 1 ? Math.min(Math.max(0, now - this.sentAt), POSITION_SLACK_MS) : 0));
  }

  /** Drops the connection as a failing CDN does: the socket is destroyed, whatever was in flight is lost. */
  drop(): void {
    if (this.closed) return;
    this.closed = true;
    this.res.socket?.destroy();
  }

  /** Ends the response cleanly at a tag boundary (room went offline, room deleted, simulator closing). */
  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.res.end();
  }

  private sendDue(target: number): void {
    const tags = this.clip.tags;
    let size = 0;
    let idx = this.idx;
    let base = this.loopBase;
    let n = 0;
    while (base + tags[idx]!.ts <= target) {
      const t = tags[idx]!;
      size += tagWireSize(t.body.length, t.video ? this.filler : 0, t.video);
      n++;
      if (++idx === tags.length) {
        idx = 0;
        base += this.clip.periodMs;
      }
    }
    if (n === 0) return;
    const out = Buffer.allocUnsafe(size);
    let pos = 0;
    for (let i = 0; i < n; i++) {
      const t = tags[this.idx]!;
      const ts = (this.loopBase + t.ts + this.tsOffset) | 0;
      pos = writeTag(out, pos, t.type, ts, t.body, t.video ? this.filler : 0, t.video);
      if (this.lastSentTs !== null && ts > this.lastSentTs) this.room.counters.mediaMsServed += ts - this.lastSentTs;
      if (t.video) this.room.liveStream?.sentVideo(this.serial, ts);
      this.lastSentTs = ts;
      this.firstPosition ??= this.loopBase + t.ts;
      this.sentPosition = this.loopBase + t.ts - this.firstPosition;
      if (++this.idx === tags.length) {
        this.idx = 0;
        this.loopBase += this.clip.periodMs;
      }
    }
    this.lastChunk = out;
    this.sentAt = this.lastPump;
    this.write(out);
  }

  private switchClip(): void {
    const next = this.clip.tags[this.idx]!;
    const at = this.loopBase + next.ts;
    if (this.switchKind === 'codec') this.hevc = !this.hevc;
    this.clip = this.av1 ? av1FlvClip() : roomClip(this.room, this.hevc);
    this.filler = this.fillerOf(this.clip);
    this.idx = 0;
    this.loopBase = at;
    this.write(headerTags(this.clip, (at + this.tsOffset) | 0));
  }

  /** Sends half of the next tag, then closes the socket once that is flushed: the body ends mid-tag. */
  private cut(): void {
    const t = this.clip.tags[this.idx]!;
    const whole = Buffer.allocUnsafe(tagWireSize(t.body.length, 0, t.video));
    writeTag(whole, 0, t.type, (this.loopBase + t.ts + this.tsOffset) | 0, t.body, 0, t.video);
    this.write(whole.subarray(0, Math.max(12, whole.length >> 1)));
    this.closed = true;
    this.res.socket?.destroySoon();
  }

  private fillerOf(clip: Clip): number {
    return this.room.padWithFiller && !this.av1 ? fillerFor(clip, this.room.bitrateKbps) : 0;
  }

  private write(buf: Buffer): void {
    this.room.counters.bytesServed += buf.length;
    this.res.write(buf);
  }
}
