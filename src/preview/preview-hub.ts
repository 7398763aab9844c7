// The main thread's side of the live preview: per room, the file's head and its current GOP, and up to
// PreviewMaxViewers readers; the room's thread sends bytes only while at least one reads (and briefly after).
import { LiverecError } from '../errors.js';
import type { Logger } from '../log/logger.js';
import type { PreviewChunk, PreviewFormat } from '../rooms/protocol.js';
import { FlvTagSplitter } from './flv-tags.js';
import { fragmentsOf, keyInfoOf, type Mp4KeyInfo } from './mp4-fragments.js';
import { PreviewViewer } from './viewer.js';

export { VIEWER_QUEUE_BYTES } from './viewer.js';

/** The GOP kept for a joining viewer is dropped past this (it starts at the next keyframe instead). */
const GOP_CACHE_BYTES = 6 * 1024 * 1024;
/** The room's thread keeps sending this long after the last viewer left: a reload starts at once. */
const LINGER_MS = 15_000;

/** The URL that serves a format, for the refusal naming it. */
const OTHER: Record<PreviewFormat, string> = { flv: 'FLV: read live.flv', ts: 'HLS MPEG-TS: read live.ts', mp4: 'HLS fMP4: read live.mp4' };

export interface PreviewDanmaku { roomId: number; text: string; color: number; user: string }

export interface PreviewHubOptions {
  /** Turns a room's tap on or off in its thread; the format of the file it writes now, null when none the preview reads. */
  control(roomId: number, on: boolean): Promise<PreviewFormat | null>;
  maxViewers(): number;
  /** A comment while the room is watched (the event stream passes it to the room's page). */
  onDanmaku?(d: PreviewDanmaku): void;
  log?: Logger;
  /** Bytes a viewer may fall behind before it is dropped (default VIEWER_QUEUE_BYTES). */
  viewerQueueBytes?: number;
}

interface RoomPreview {
  viewers: Set<PreviewViewer>;
  /** The format the room's thread sends; null while off. */
  on: PreviewFormat | null;
  /** Turning on in flight (joins wait for it). */
  starting: Promise<PreviewFormat | null> | null;
  head: Uint8Array | null;
  /** The open file (full path) and its latest tag time (ms): where a live marker lands. */
  path: string | null;
  lastTs: number;
  gop: Uint8Array[];
  gopBytes: number;
  splitter: FlvTagSplitter;
  /** fMP4: the video tracks of the head (which fragments begin with a keyframe). */
  mp4: Mp4KeyInfo | null;
  linger: NodeJS.Timeout | null;
}

export class PreviewHub {
  private readonly rooms = new Map<number, RoomPreview>();

  constructor(private readonly options: PreviewHubOptions) {}

  private room(roomId: number): RoomPreview {
    let r = this.rooms.get(roomId);
    if (!r) {
      r = { viewers: new Set(), on: null, starting: null, head: null, path: null, lastTs: 0, gop: [], gopBytes: 0, splitter: new FlvTagSplitter(), mp4: null, linger: null };
      this.rooms.set(roomId, r);
    }
    return r;
  }

  /** Viewers of a room now (tests, metrics). */
  viewers(roomId: number): number {
    return this.rooms.get(roomId)?.viewers.size ?? 0;
  }

  /** The open file and its latest written time, while the room is watched; null otherwise. */
  position(roomId: number): { path: string; atMs: number } | null {
    const r = this.rooms.get(roomId);
    return r?.on && r.path ? { path: r.path, atMs: r.lastTs } : null;
  }

  /**
   * A new reader: the FLV head and the GOP so far at once (or at the next keyframe), then live tags; for a TS room,
   * the last whole segment, then each segment as it is written; for an fMP4 room, its init section (ftyp+moov as
   * written), the fragments from the last one that begins with a keyframe, then each fragment as its segment is written. Refused with PREVIEW_OFF (PreviewMaxViewers 0),
   * PREVIEW_FULL, PREVIEW_NOT_RECORDING (no file the preview reads), or PREVIEW_OTHER_FORMAT (the room writes the
   * other format: its message names the URL).
   */
  async join(roomId: number, format: PreviewFormat = 'flv'): Promise<ReadableStream<Uint8Array>> {
    const max = this.options.maxViewers();
    if (max <= 0) throw new LiverecError('PREVIEW_OFF', 'the live preview is off (PreviewMaxViewers is 0)');
    const r = this.room(roomId);
    if (r.viewers.size >= max) throw new LiverecError('PREVIEW_FULL', `room ${roomId} has ${r.viewers.size} preview viewers, PreviewMaxViewers is ${max}`);
    if (r.linger) clearTimeout(r.linger);
    r.linger = null;
    if (!r.on) {
      r.starting ??= this.options.control(roomId, true).finally(() => (r.starting = null));
      const writing = await r.starting;
      r.on = r.on ?? writing;
      if (!r.on) {
        this.release(roomId, r);
        throw new LiverecError('PREVIEW_NOT_RECORDING', `room ${roomId} is not writing an FLV, MPEG-TS or fMP4 recording now`);
      }
    }
    if (r.on !== format) {
      const other = r.on;
      if (r.viewers.size === 0 && !r.linger) {
        r.linger = setTimeout(() => this.release(roomId, r), LINGER_MS);
        r.linger.unref();
      }
      throw new LiverecError('PREVIEW_OTHER_FORMAT', `room ${roomId} records ${OTHER[other]}`);
    }
    if (r.viewers.size >= max) throw new LiverecError('PREVIEW_FULL', `room ${roomId} has ${r.viewers.size} preview viewers, PreviewMaxViewers is ${max}`);
    const viewer = new PreviewViewer((v) => this.left(roomId, v), this.options.viewerQueueBytes);
    const stream = viewer.open();
    r.viewers.add(viewer);
    if (r.head && r.gop.length) viewer.start([r.head, ...r.gop]);
    return stream;
  }

  /** The format a watched room sends (for the route's content type). */
  format(roomId: number): PreviewFormat | null {
    return this.rooms.get(roomId)?.on ?? null;
  }

  private left(roomId: number, v: PreviewViewer): void {
    const r = this.rooms.get(roomId);
    if (!r) return;
    r.viewers.delete(v);
    if (v.endReason === 'slow') this.options.log?.warn({ roomId, code: 'PREVIEW_VIEWER_SLOW' }, 'a live preview viewer fell behind and was dropped');
    if (r.viewers.size === 0 && !r.linger) {
      r.linger = setTimeout(() => this.release(roomId, r), LINGER_MS);
      r.linger.unref();
    }
  }

  /** Nobody watches: the thread stops sending, the cache goes. */
  private release(roomId: number, r: RoomPreview): void {
    if (r.viewers.size > 0) return;
    if (r.linger) clearTimeout(r.linger);
    this.rooms.delete(roomId);
    if (r.on) void this.options.control(roomId, false);
  }

  /** A chunk from a room's thread. */
  receive(roomId: number, chunk: PreviewChunk): void {
    const r = this.rooms.get(roomId);
    if (!r) {
      // Sent after the last viewer's linger ended (the off message crossed it): turn it off again.
      if (chunk.kind !== 'danmaku') void this.options.control(roomId, false);
      return;
    }
    switch (chunk.kind) {
      case 'head':
        r.on = chunk.format;
        r.head = chunk.bytes;
        r.path = chunk.path;
        r.lastTs = 0;
        r.gop = [];
        r.gopBytes = 0;
        r.splitter.reset();
        r.mp4 = chunk.format === 'mp4' ? keyInfoOf(chunk.bytes) : null;
        return;
      case 'end':
        // The file closed (a split, the stream's end): readers reconnect and start on the next file's head.
        for (const v of [...r.viewers]) v.close('end');
        r.head = null;
        r.path = null;
        r.gop = [];
        r.gopBytes = 0;
        return;
      case 'danmaku':
        this.options.onDanmaku?.({ roomId, text: chunk.text, color: chunk.color, user: chunk.user });
        return;
      case 'data':
        if (r.on === 'ts') this.segment(r, chunk.bytes);
        else if (r.on === 'mp4') this.fragments(r, chunk.bytes);
        else this.data(r, chunk.bytes);
    }
  }

  private data(r: RoomPreview, bytes: Uint8Array): void {
    const tags = r.splitter.push(bytes);
    if (r.splitter.broken) {
      for (const v of [...r.viewers]) v.close('end');
      return;
    }
    // Viewers already started take every tag; waiting ones start at the first keyframe.
    for (const tag of tags) {
      if (tag.type !== 18) r.lastTs = tag.ts;
      if (tag.key) {
        r.gop = [];
        r.gopBytes = 0;
      }
      if (tag.key || (r.gop.length > 0 && r.gopBytes < GOP_CACHE_BYTES)) {
        r.gop.push(tag.bytes);
        r.gopBytes += tag.bytes.length;
      } else if (!tag.key && r.gopBytes >= GOP_CACHE_BYTES) {
        r.gop = [];
        r.gopBytes = 0;
      }
    }
    if (tags.length === 0) return;
    for (const v of r.viewers) {
      if (!v.started) {
        const k = r.head ? tags.findIndex((t) => t.key) : -1;
        if (k < 0) continue;
        v.start([r.head!]);
        for (const t of tags.slice(k)) v.send(t.bytes);
      } else {
        for (const t of tags) v.send(t.bytes);
      }
    }
  }

  /** A whole TS segment (it starts with PAT/PMT and, from the service, a keyframe): every viewer may start on it. */
  private segment(r: RoomPreview, bytes: Uint8Array): void {
    r.gop = bytes.length <= GOP_CACHE_BYTES ? [bytes] : [];
    r.gopBytes = bytes.length;
    for (const v of r.viewers) {
      if (v.started) v.send(bytes);
      else v.start([bytes]);
    }
  }

  /**
   * Whole fMP4 segments: kept from the last fragment that begins with a keyframe (a joining viewer gets the head and
   * those), passed on to started viewers; a waiting viewer starts with the head at the next such fragment.
   */
  private fragments(r: RoomPreview, bytes: Uint8Array): void {
    if (!r.head || !r.mp4) return; // no init section yet: nothing can be played
    for (const f of fragmentsOf(bytes, r.mp4)) {
      if (f.key) {
        r.gop = [];
        r.gopBytes = 0;
      }
      if ((f.key || r.gop.length > 0) && r.gopBytes + f.bytes.length <= GOP_CACHE_BYTES) {
        r.gop.push(f.bytes);
        r.gopBytes += f.bytes.length;
      } else if (!f.key) {
        r.gop = [];
        r.gopBytes = 0;
      }
      for (const v of r.viewers) {
        if (v.started) v.send(f.bytes);
        else if (f.key) {
          v.start([r.head]);
          v.send(f.bytes);
        }
      }
    }
  }

  /** Ends every viewer (the service stops). */
  close(): void {
    for (const [roomId, r] of this.rooms) {
      for (const v of [...r.viewers]) v.close('end');
      if (r.linger) clearTimeout(r.linger);
      this.rooms.delete(roomId);
    }
  }
}
