// The file side shared by the fMP4 and TS writers: segments appended to one file, torn segments cut off, splits, stats.
import fs, { closeSync, ftruncateSync, openSync, rmSync, writeSync } from 'node:fs';
import { writePartsAt } from '../flv/writer/gathered-write.js';
import type { RecordingStatsDelta } from '../flv/rules/stats.js';
import type { FileClosedInfo } from '../flv/writer/output.js';
import type { HlsSink } from './live-client.js';
import type { PlaylistSegment } from './playlist.js';

/** What a writer reports to its capture (RecordingFiles, StatsTracker and the cutting rules stand behind these). */
export interface WriterHooks {
  nextPath(): string;
  opened(path: string): void;
  closed(info: FileClosedInfo): void;
  /** After every segment written (brec's per-group stats, one group = one segment). */
  segment(delta: RecordingStatsDelta): void;
  disk(bytes: number, ms: number): void;
  log(level: 'debug' | 'info' | 'warn', msg: string, fields?: Record<string, unknown>): void;
  /** fMP4: extra top-level boxes written after ftyp+moov of each new file (liverec's source box). */
  fileHead?(): Buffer | null;
  /** A segment is on disk for good at [start, end) of the file (the live preview reads it there while watched). */
  committed?(path: string, start: number, end: number): void;
  /** The open file lacks `durationMs` of the stream at `startMs`: segments were missed and a later one was written after them. */
  gap?(startMs: number, durationMs: number): void;
}

export interface SegmentMedia {
  videoFrames: number;
  audioFrames: number;
  videoBytes: number;
  audioBytes: number;
  /** Media end of the file after this segment, ms from the file's first decode time. */
  fileMaxMs: number;
}

/** How far back (ms) a segment may start and still count as a repeat rather than a restarted timeline. */
export const REPEAT_WINDOW_MS = 60_000;

/**
 * Bytes staged before a write. Network reads hand over 16–64 KiB at a time, and writing each at once cost one
 * write(2) per read (about 20 a second per 6 Mbps room); staged, a 1.5 MB segment takes six writes. Every whole
 * segment is on disk when it is committed, so a kill -9 still loses at most the segment in flight.
 */
const STAGE_BYTES = 256 * 1024;

export abstract class SegmentWriter implements HlsSink {
  /** Segments dropped because their media was already written (sequence reset, reconnect overlap). */
  repeats = 0;
  anomalies = 0;
  private fd: number | null = null;
  private path = '';
  /** Bytes of the file, staged ones included. */
  protected size = 0;
  /** Bytes already on disk; the rest of `size` is in `stage`. */
  private flushed = 0;
  private stage: Buffer | null = null;
  private staged = 0;
  private segStart = 0;
  private splitRequested = false;
  protected fileMaxMs = 0;
  private closedMaxMs = 0;
  /** Segments committed into the open file. */
  private committedInFile = 0;
  private totals = { inV: 0, inA: 0, vFrames: 0, aFrames: 0, vBytes: 0, aBytes: 0 };
  /** Stream (ms) of segments missed since the last one committed: a hole only once a later segment lands in this file. */
  private missedMs = 0;

  constructor(protected readonly hooks: WriterHooks) {}

  abstract init(bytes: Buffer): void;
  abstract begin(segment: PlaylistSegment): void;
  abstract data(chunk: Uint8Array): void;
  abstract end(): boolean;

  /** The next segment starts a new file (manual split, cutting rules, title change). */
  requestSplit(): void {
    this.splitRequested = true;
  }

  /**
   * Segments of `durationMs` in all could not be obtained. They are a gap of the open file only when a later segment
   * is committed to it; a file that closes (the stream ended) or a new file that starts after them lacks nothing.
   */
  missed(durationMs: number): void {
    if (this.fd !== null) this.missedMs += durationMs;
  }

  /** The open file's media end (ms on its timeline). */
  get mediaEndMs(): number {
    return this.fileMaxMs;
  }

  get isOpen(): boolean {
    return this.fd !== null;
  }

  /** Drops what was written of the current segment. */
  abort(): void {
    if (this.fd === null || this.size <= this.segStart) return;
    if (this.segStart >= this.flushed) this.staged = this.segStart - this.flushed;
    else {
      this.staged = 0;
      ftruncateSync(this.fd, this.segStart);
      this.flushed = this.segStart;
    }
    this.size = this.segStart;
  }

  /** Closes the file on its last whole segment. Safe to call at any time, also synchronously on the way down. */
  close(): void {
    if (this.fd === null) return;
    this.abort();
    const fd = this.fd;
    try {
      this.flush();
    } catch (err) {
      this.hooks.log('warn', `could not write the end of ${this.path}: ${(err as Error).message}`, { code: (err as { code?: string }).code });
      this.size = this.flushed;
    } finally {
      this.fd = null;
      this.stage = null;
      this.staged = 0;
      closeSync(fd);
    }
    if (this.committedInFile === 0) {
      // Its only segment was cut off (it never ended, or was too large): no media, so no file (a 0-byte .ts is no file).
      rmSync(this.path, { force: true });
      this.hooks.log('info', `removed ${this.path}: no whole segment reached it`);
      this.size = 0;
    }
    this.closedMaxMs += this.fileMaxMs;
    this.missedMs = 0; // nothing followed them in this file
    this.hooks.closed({ path: this.path, size: this.size, duration: this.fileMaxMs / 1000 });
    this.fileMaxMs = 0;
  }

  /** Called at a segment's first media: opens a new file when asked to (or when none is open); returns true if it did. */
  protected startSegment(newFile: boolean, head: Uint8Array | null): boolean {
    const open = newFile || this.splitRequested || this.fd === null;
    if (open) {
      this.close();
      this.splitRequested = false;
      this.path = this.hooks.nextPath();
      this.fd = openSync(this.path, 'wx');
      this.size = this.flushed = this.staged = 0;
      this.committedInFile = 0;
      this.hooks.opened(this.path);
      if (head) this.write(head);
    }
    this.segStart = this.size;
    return open;
  }

  /** Overwrites bytes already written (same length) at `position`. */
  protected patch(position: number, bytes: Uint8Array): void {
    if (this.fd === null) return;
    this.flush();
    const t0 = performance.now();
    let done = 0;
    while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done, position + done);
    this.hooks.disk(bytes.length, performance.now() - t0);
  }

  /** Appends to the file through the stage; `bytes` may be a view that is reused once this returns (it is copied). */
  protected write(bytes: Uint8Array): void {
    if (this.fd === null) return;
    if (this.staged + bytes.length > STAGE_BYTES) this.flush();
    if (bytes.length >= STAGE_BYTES) this.writeNow(bytes);
    else {
      this.stage ??= Buffer.allocUnsafe(STAGE_BYTES);
      this.stage.set(bytes, this.staged);
      this.staged += bytes.length;
    }
    this.size += bytes.length;
  }

  /** Writes what is staged. */
  protected flush(): void {
    if (this.fd === null || this.staged === 0) return;
    const n = this.staged;
    this.staged = 0;
    this.writeNow(this.stage!.subarray(0, n));
  }

  private writeNow(bytes: Uint8Array): void {
    const t0 = performance.now();
    writePartsAt(fs, this.fd!, [bytes], this.flushed);
    this.flushed += bytes.length;
    this.hooks.disk(bytes.length, performance.now() - t0);
  }

  /** The segment is on disk: it becomes part of the file for good, and its stats are published. */
  protected commit(m: SegmentMedia): void {
    this.flush();
    this.committedInFile++;
    // Between the file's end so far and this segment; before a file's first segment nothing is missing from it.
    if (this.missedMs > 0 && this.committedInFile > 1) this.hooks.gap?.(this.fileMaxMs, this.missedMs);
    this.missedMs = 0;
    this.hooks.committed?.(this.path, this.segStart, this.size);
    this.segStart = this.size;
    const added = Math.max(0, m.fileMaxMs - this.fileMaxMs);
    this.fileMaxMs = Math.max(this.fileMaxMs, m.fileMaxMs);
    const t = this.totals;
    t.inV += m.videoBytes;
    t.inA += m.audioBytes;
    t.vFrames += m.videoFrames;
    t.aFrames += m.audioFrames;
    t.vBytes += m.videoBytes;
    t.aBytes += m.audioBytes;
    this.hooks.segment({
      inputVideoBytes: m.videoBytes, inputAudioBytes: m.audioBytes, totalInputVideoBytes: t.inV, totalInputAudioBytes: t.inA,
      totalInputBytes: t.inV + t.inA, outputVideoFrames: m.videoFrames, outputAudioFrames: m.audioFrames,
      outputVideoBytes: m.videoBytes, outputAudioBytes: m.audioBytes, totalOutputVideoFrames: t.vFrames, totalOutputAudioFrames: t.aFrames,
      totalOutputVideoBytes: t.vBytes, totalOutputAudioBytes: t.aBytes, totalOutputBytes: t.vBytes + t.aBytes,
      addedDuration: added / 1000, currentFileSize: this.size, fileMaxTimestamp: this.fileMaxMs,
      sessionMaxTimestamp: this.closedMaxMs + this.fileMaxMs,
    });
  }
}
