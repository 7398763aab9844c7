// fMP4 segments → one fragmented MP4 per file: the init section once, then moof+mdat pairs written to disk as they arrive.
import type { PlaylistSegment } from './playlist.js';
import { type Mp4Init, boxes, parseInit, parseMoof, setDecodeTime, type TrackRun } from './mp4-boxes.js';
import { REPEAT_WINDOW_MS, SegmentWriter, type WriterHooks } from './segment-writer.js';
import { boxDepth, MAX_BOX_DEPTH, moofProblem } from './box-guard.js';
import { LiverecError } from '../errors.js';

/** Boxes held in memory until whole (moof and friends are small); mdat payloads pass straight to the file. */
const MAX_HELD_BOX = 16 * 1024 * 1024;

/**
 * Every file is ftyp + moov (from the stream's init section) followed by whole fragments, so it plays while it is
 * written and after a kill -9 up to the last whole fragment. styp/sidx are dropped: they index a single segment,
 * and a file of many segments with many sidx boxes confuses players' duration and seeking.
 *
 * A fragment becomes visible only once it is whole: its moof is first written as a `free` box of the same size,
 * the mdat follows it (staged, see segment-writer.ts), and the moof is written over the placeholder when the
 * segment is complete. A kill -9 mid-segment leaves nothing of it, or a free box and an mdat no moof points to,
 * which players skip without an error.
 *
 * Decode times are moved
 * so that each file starts at 0 (as FLV files do), by one offset in seconds for all tracks, which keeps A/V sync.
 */
export class Fmp4Writer extends SegmentWriter {
  private initBytes: Buffer | null = null;
  private info: Mp4Init | null = null;
  private fileKey = '';
  /** Decode end per track id written so far (track timescale, as received). */
  private readonly written = new Map<number, number>();
  /** Seconds subtracted from every decode time of the current file (its first fragment's earliest track start). */
  private fileOffset = 0;
  // Per-segment parse state.
  private head = Buffer.alloc(0);
  private held: Buffer[] = [];
  private heldLeft = 0;
  private heldType = '';
  private passLeft = 0;
  private skip = false;
  private started = false;
  /** moof boxes of this segment and where their placeholders are. */
  private moofs: { position: number; box: Buffer }[] = [];
  private media = { videoFrames: 0, audioFrames: 0, videoBytes: 0, audioBytes: 0, ends: new Map<number, number>() };

  /** `maxHeldBox`: the largest box held whole (RecordMemoryBudgetMB / 8, see hls-limits.ts). */
  constructor(hooks: WriterHooks, private readonly maxHeldBox = MAX_HELD_BOX) {
    super(hooks);
  }

  init(bytes: Buffer): void {
    const deep = boxes(bytes).find((b) => boxDepth(bytes, b) > MAX_BOX_DEPTH);
    const info = deep ? null : parseInit(bytes);
    if (!info) {
      this.anomalies++;
      this.hooks.log('warn', 'init section has no playable track; keeping the previous one');
      return;
    }
    // Only ftyp + moov go into files (some servers append other boxes to the init section).
    const keep = boxes(bytes).filter((b) => b.type === 'ftyp' || b.type === 'moov');
    this.initBytes = Buffer.concat(keep.map((b) => bytes.subarray(b.start, b.end)));
    this.info = info;
  }

  begin(_segment: PlaylistSegment): void {
    this.head = Buffer.alloc(0);
    this.held = [];
    this.heldLeft = this.passLeft = 0;
    this.skip = this.started = false;
    this.moofs = [];
    this.media = { videoFrames: 0, audioFrames: 0, videoBytes: 0, audioBytes: 0, ends: new Map() };
  }

  data(chunk: Uint8Array): void {
    let p = 0;
    while (p < chunk.length) {
      if (this.passLeft > 0) {
        const n = Math.min(this.passLeft, chunk.length - p);
        if (!this.skip) this.write(chunk.subarray(p, p + n));
        this.passLeft -= n;
        p += n;
      } else if (this.heldLeft > 0) {
        const n = Math.min(this.heldLeft, chunk.length - p);
        this.held.push(Buffer.from(chunk.subarray(p, p + n)));
        this.heldLeft -= n;
        p += n;
        if (this.heldLeft === 0) this.onBox(this.heldType, Buffer.concat(this.held));
      } else {
        const need = this.head.length >= 8 && this.head.readUInt32BE(0) === 1 ? 16 : 8;
        const n = Math.min(need - this.head.length, chunk.length - p);
        this.head = Buffer.concat([this.head, chunk.subarray(p, p + n)]);
        p += n;
        if (this.head.length < need || (need === 8 && this.head.readUInt32BE(0) === 1)) continue;
        this.onHeader();
      }
    }
  }

  end(): boolean {
    const whole = this.passLeft === 0 && this.heldLeft === 0 && this.head.length === 0;
    if (!whole || this.skip || !this.started) return whole;
    for (const m of this.moofs) this.patch(m.position, m.box);
    this.moofs = [];
    for (const [track, end] of this.media.ends) this.written.set(track, Math.max(this.written.get(track) ?? 0, end));
    this.commit({ ...this.media, fileMaxMs: this.endMs() });
    return true;
  }

  private onHeader(): void {
    const h = this.head;
    const type = h.toString('latin1', 4, 8);
    const size = h.length === 16 ? Number(h.readBigUInt64BE(8)) : h.readUInt32BE(0);
    this.head = Buffer.alloc(0);
    if (size < h.length) {
      this.anomalies++;
      throw new Error(`box ${JSON.stringify(type)} has a bad size ${size}`);
    }
    if (type === 'mdat') {
      if (!this.started && !this.skip) throw new Error('mdat before any moof');
      if (!this.skip) this.write(h);
      this.passLeft = size - h.length;
      return;
    }
    if (size > this.maxHeldBox) throw new Error(`box ${JSON.stringify(type)} of ${size} bytes is too large`);
    this.heldType = type;
    this.held = [h];
    this.heldLeft = size - h.length;
    if (this.heldLeft === 0) this.onBox(type, h);
  }

  private onBox(type: string, box: Buffer): void {
    this.held = [];
    if (type !== 'moof') return; // styp, sidx, prft, emsg, free: not part of the recording
    const ref = { type, start: 0, body: box.length > 8 && box.readUInt32BE(0) === 1 ? 16 : 8, end: box.length };
    const problem = moofProblem(box, ref);
    if (problem) {
      // What cannot be written validly is not written: the segment is dropped (and fetched again, then a gap).
      this.anomalies++;
      throw new LiverecError('HLS_BAD_FRAGMENT', problem);
    }
    const runs = parseMoof(box, ref, this.info);
    if (!this.started && !this.skip) this.decide(runs);
    if (this.skip) return;
    for (const r of runs) {
      const track = this.info?.tracks.find((t) => t.trackId === r.trackId);
      if (track?.handler === 'vide') {
        this.media.videoFrames += r.samples;
        this.media.videoBytes += r.bytes;
      } else {
        this.media.audioFrames += r.samples;
        this.media.audioBytes += r.bytes;
      }
      this.media.ends.set(r.trackId, Math.max(this.media.ends.get(r.trackId) ?? 0, r.baseDecodeTime + r.duration));
      setDecodeTime(box, r, Math.max(0, r.baseDecodeTime - Math.round(this.fileOffset * this.scale(r.trackId))));
    }
    this.moofs.push({ position: this.size, box });
    const placeholder = Buffer.alloc(box.length);
    placeholder.writeUInt32BE(box.length, 0);
    placeholder.write('free', 4, 'latin1');
    this.write(placeholder);
  }

  /** At a segment's first fragment: drop it if its media is already on disk; else pick the file it goes to. */
  private decide(runs: TrackRun[]): void {
    if (!this.info || !this.initBytes) throw new Error('fragment before any init section');
    const scale = (id: number): number => this.scale(id);
    const known = runs.filter((r) => this.written.has(r.trackId));
    const repeat = known.length > 0 && known.every((r) => r.baseDecodeTime + r.duration <= this.written.get(r.trackId)!);
    const restarted = known.some((r) => (this.written.get(r.trackId)! - r.baseDecodeTime) / scale(r.trackId) * 1000 > REPEAT_WINDOW_MS);
    if (repeat && !restarted) {
      this.skip = true;
      this.repeats++;
      return;
    }
    const newInit = this.info ? this.fileKey !== this.info.key : false;
    if (restarted) {
      this.hooks.log('warn', 'decode times went back: the stream restarted its timeline; starting a new file');
      this.written.clear();
    }
    const extra = this.hooks.fileHead?.();
    if (this.startSegment(newInit || restarted, extra ? Buffer.concat([this.initBytes, extra]) : this.initBytes)) {
      if (this.fileKey !== '' && newInit) this.hooks.log('info', 'init section changed (codec, resolution or timescale): new file');
      this.fileKey = this.info.key;
      this.fileOffset = Math.min(...runs.map((r) => r.baseDecodeTime / scale(r.trackId)));
    }
    this.started = true;
  }

  private scale(trackId: number): number {
    return this.info?.tracks.find((t) => t.trackId === trackId)?.timescale || 1000;
  }

  /** The file's media end: the furthest track end, in ms from the file's start. */
  private endMs(): number {
    let ms = 0;
    for (const [track, end] of this.written) ms = Math.max(ms, (end / this.scale(track) - this.fileOffset) * 1000);
    return ms;
  }
}
