// In a room thread: the recording's appended bytes, passed to the main thread only while someone watches the preview.
import * as nodeFs from 'node:fs';
import type { DanmakuEvent } from '../bilibili/danmaku/commands.js';
import type { FlvFileSystem } from '../flv/writer/file-output.js';
import type { PreviewChunk, PreviewFormat, RoomMessage } from '../rooms/protocol.js';

type Post = (message: RoomMessage, transfer?: ArrayBuffer[]) => void;

/** An own copy of bytes that may be views into reused memory (the writer's stager, slabs). */
const own = (parts: readonly Uint8Array[], n: number): Uint8Array => {
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    if (at >= n) break;
    const take = Math.min(p.length, n - at);
    out.set(take === p.length ? p : p.subarray(0, take), at);
    at += take;
  }
  return out;
};

/**
 * The FLV header and the audio/video tags of a file's first write (the writer opens a file with header, onMetaData,
 * then the sequence headers at time 0, in one write): onMetaData is left out, its keyframe index is the file's.
 */
export function headOf(first: Uint8Array): Uint8Array | null {
  if (first.length < 13 || first[0] !== 0x46 || first[1] !== 0x4c || first[2] !== 0x56) return null;
  const view = new DataView(first.buffer, first.byteOffset, first.byteLength);
  const headerEnd = view.getUint32(5) + 4;
  const keep: Uint8Array[] = [first.subarray(0, headerEnd)];
  for (let p = headerEnd; p + 11 <= first.length;) {
    const type = first[p]! & 0x1f;
    const size = (first[p + 1]! << 16) | (first[p + 2]! << 8) | first[p + 3]!;
    const end = p + 11 + size + 4;
    if (end > first.length) break;
    if (type === 8 || type === 9) keep.push(first.subarray(p, end));
    p = end;
  }
  return own(keep, keep.reduce((n, k) => n + k.length, 0));
}

/** An fMP4 file's init section above this is not kept (a moov of a live stream is a few KB). */
const MAX_MP4_HEAD = 4 * 1024 * 1024;

export class PreviewTap {
  private active = false;
  /** The open file's head (small: FLV header and sequence headers), kept so a preview can start mid-file. */
  private head: Uint8Array | null = null;
  private fd: number | null = null;
  private path = '';
  /** What the open file is: its FLV output writes through fs(); an HLS writer reports whole segments. */
  private format: PreviewFormat = 'flv';
  /** The open HLS file's last whole segment [start, end). */
  private lastSegment: [number, number] | null = null;
  private end = 0;

  constructor(private readonly roomId: () => number, private readonly post: Post) {}

  /** Turns forwarding on or off; the open file's format (its head is sent first), null when none is open. */
  setActive(on: boolean): PreviewFormat | null {
    this.active = on;
    if (on && this.head) this.send({ kind: 'head', bytes: this.head.slice(), path: this.path, format: this.format });
    // An HLS file: its last whole segment at once (read back now), so the first viewer need not wait for the next.
    if (on && this.head && this.format !== 'flv' && this.lastSegment) this.sendRange(this.lastSegment[0], this.lastSegment[1]);
    if (this.format === 'mp4' && this.path) return 'mp4'; // its head comes with its first whole segment
    return this.head ? this.format : null;
  }

  /** An HLS file opened: TS segments carry their own PAT/PMT (an empty head); an fMP4 file's head is its init section. */
  hlsOpened(path: string, format: 'ts' | 'mp4'): void {
    this.format = format;
    this.path = path;
    this.lastSegment = null;
    this.head = format === 'ts' ? new Uint8Array(0) : null;
    if (this.active && this.head) this.send({ kind: 'head', bytes: new Uint8Array(0), path, format: 'ts' });
  }

  /**
   * An HLS segment is on disk for good at [start, end): read back and sent while watched (nothing is read otherwise,
   * except an fMP4 file's init section, ftyp+moov as written before its first segment, kept as its head: a few KB).
   */
  hlsCommitted(path: string, start: number, end: number): void {
    if (path !== this.path || end <= start || this.format === 'flv') return;
    // The file's first segment follows its init section: the bytes before it (a few KB; never a later run of fragments).
    if (this.format === 'mp4' && !this.head && !this.lastSegment && start > 0 && start <= MAX_MP4_HEAD) {
      this.head = this.read(0, start);
      if (this.active && this.head) this.send({ kind: 'head', bytes: this.head.slice(), path, format: 'mp4' });
    }
    this.lastSegment = [start, end];
    if (this.active) this.sendRange(start, end);
  }

  /** The HLS file closed. */
  hlsClosed(path: string): void {
    if (path !== this.path || this.format === 'flv') return;
    this.head = null;
    this.path = '';
    this.lastSegment = null;
    this.format = 'flv';
    if (this.active) this.send({ kind: 'end' });
  }

  private sendRange(start: number, end: number): void {
    const bytes = this.read(start, end);
    if (bytes) this.send({ kind: 'data', bytes });
  }

  /** Bytes [start, end) of the open file; null when it cannot be read whole (never an error: the recording goes on). */
  private read(start: number, end: number): Uint8Array | null {
    const bytes = new Uint8Array(end - start);
    let fd: number | null = null;
    try {
      fd = nodeFs.openSync(this.path, 'r');
      let done = 0;
      while (done < bytes.length) {
        const n = nodeFs.readSync(fd, bytes, done, bytes.length - done, start + done);
        if (n <= 0) return null;
        done += n;
      }
      return bytes;
    } catch {
      return null;
    } finally {
      if (fd !== null) nodeFs.closeSync(fd);
    }
  }

  get watched(): boolean {
    return this.active;
  }

  send(chunk: PreviewChunk): void {
    const transfer = 'bytes' in chunk ? [chunk.bytes.buffer as ArrayBuffer] : undefined;
    this.post({ type: 'preview', roomId: this.roomId(), chunk }, transfer);
  }

  private written(fd: number, parts: readonly Uint8Array[], n: number, position: number): void {
    if (fd !== this.fd || n <= 0 || this.format !== 'flv') return;
    if (position === 0 && this.end === 0) {
      this.head = headOf(own(parts, n));
      if (this.active && this.head) this.send({ kind: 'head', bytes: this.head.slice(), path: this.path, format: 'flv' });
    } else if (position === this.end && this.active) {
      this.send({ kind: 'data', bytes: own(parts, n) });
    }
    // Writes before the end rewrite onMetaData in place: not part of the stream.
    if (position === this.end) this.end += n;
  }

  /** The file calls of the room's FLV output: node:fs, noting appends (one comparison each while nobody watches). */
  fs(base: FlvFileSystem = nodeFs): FlvFileSystem {
    return {
      openSync: (path, flags) => {
        const fd = base.openSync(path, flags);
        this.fd = fd;
        this.path = path;
        this.format = 'flv';
        this.end = 0;
        this.head = null;
        return fd;
      },
      writeSync: (fd, buffer, offset, length, position) => {
        const n = base.writeSync(fd, buffer, offset, length, position);
        this.written(fd, [buffer.subarray(offset, offset + length)], n, position);
        return n;
      },
      writevSync: base.writevSync ? (fd, buffers, position) => {
        const n = base.writevSync!(fd, buffers, position);
        this.written(fd, buffers, n, position);
        return n;
      } : undefined,
      ftruncateSync: (fd, len) => base.ftruncateSync(fd, len),
      closeSync: (fd) => {
        base.closeSync(fd);
        if (fd !== this.fd) return;
        this.fd = null;
        this.head = null;
        this.end = 0;
        if (this.active) this.send({ kind: 'end' });
      },
    };
  }
}

/** The taps of this thread's rooms, by the room id they were created for. */
const taps = new Map<number, PreviewTap>();
let post: Post | null = null;

/** Set by the room host: where preview messages go (with a transfer list). */
export function setPreviewPost(p: Post): void {
  post = p;
}

/** The tap of a room (created on first use); `roomId` is read at each send (an actor may learn its real id). */
export function previewTap(key: number, roomId: () => number): PreviewTap {
  let tap = taps.get(key);
  if (!tap) {
    tap = new PreviewTap(roomId, (m, transfer) => post?.(m, transfer));
    taps.set(key, tap);
  }
  return tap;
}

/** Forgets a room's tap (its actor is gone). */
export function dropPreviewTap(roomId: number): void {
  taps.delete(roomId);
}

/** The tap of a room if one exists. */
export const findPreviewTap = (roomId: number): PreviewTap | undefined => taps.get(roomId);

/** A room's comment or super chat, passed on while its preview is watched (the page draws it over the picture). */
export function offerPreviewDanmaku(roomId: number, ev: DanmakuEvent): void {
  const tap = taps.get(roomId);
  if (!tap?.watched) return;
  if (ev.type === 'DANMU_MSG') tap.send({ kind: 'danmaku', text: ev.text, color: ev.color, user: ev.uname });
  else if (ev.type === 'SUPER_CHAT_MESSAGE') tap.send({ kind: 'danmaku', text: ev.message, color: 0xffd966, user: ev.uname });
}
