// The main thread's side of the live preview: per room, the file's head and its current GOP, and up to
// PreviewMaxViewers readers; the room's thread sends bytes only while at least one reads (and briefly after).
import { LiverecError } from '../errors.js';
import type { Logger } from '../log/logger.js';
import type { PreviewChunk, PreviewFormat } from '../rooms/protocol.js';
import { FlvTagSplitter } from './flv-tags.js';
import { feedFlv, feedMp4, feedTs, type RoomPreview } from './feed.js';
import { keyInfoOf } from './mp4-fragments.js';
import { PreviewViewer } from './viewer.js';

export { VIEWER_QUEUE_BYTES } from './viewer.js';

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
        if (r.on === 'ts') feedTs(r, chunk.bytes);
        else if (r.on === 'mp4') feedMp4(r, chunk.bytes);
        else feedFlv(r, chunk.bytes);
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
