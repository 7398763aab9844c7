// TS segments → .ts files: segments appended whole (each carries its PAT/PMT), repeats dropped, a new file at discontinuities.
import type { PlaylistSegment } from './playlist.js';
import { REPEAT_WINDOW_MS, SegmentWriter } from './segment-writer.js';
import { TsScanner } from './ts-packets.js';

/** Bytes held before a segment's first timestamp is known (it decides repeat / new file); then the rest streams. */
const MAX_HELD = 1024 * 1024;
const WRAP = 2 ** 33;

/** `v` (33-bit) moved by whole wraps to be nearest `ref`. */
function near(v: number, ref: number): number {
  let x = v;
  while (x - ref > WRAP / 2) x -= WRAP;
  while (ref - x > WRAP / 2) x += WRAP;
  return x;
}

export class TsWriter extends SegmentWriter {
  private scanner = new TsScanner();
  private held: Buffer[] = [];
  private heldBytes = 0;
  private decided = false;
  private skip = false;
  private discontinuity = false;
  /** Last decode time written (90 kHz, unwrapped), and the file's first. */
  private last: number | null = null;
  private fileFirst = 0;
  /** PMT entries of an unread kind already reported (by PID and type): one warning each per connection. */
  private readonly reported = new Set<string>();

  /** TS has no init section. */
  init(): void {}

  begin(segment: PlaylistSegment): void {
    this.scanner = new TsScanner();
    this.held = [];
    this.heldBytes = 0;
    this.decided = this.skip = false;
    this.discontinuity = segment.discontinuity;
  }

  data(chunk: Uint8Array): void {
    this.scanner.push(chunk);
    if (this.decided) {
      if (!this.skip) this.write(chunk);
      return;
    }
    this.held.push(Buffer.from(chunk));
    this.heldBytes += chunk.length;
    const first = this.scanner.video.first ?? this.scanner.audio.first;
    if (first !== null || this.heldBytes >= MAX_HELD) this.decide(first);
  }

  end(): boolean {
    if (!this.scanner.aligned) return false;
    if (!this.decided) this.decide(this.scanner.video.first ?? this.scanner.audio.first);
    this.anomalies += this.scanner.anomalies;
    this.reportUnknown();
    if (this.skip) return true;
    const s = this.scanner;
    const t = s.video.last ?? s.audio.last;
    if (t !== null) this.last = this.last === null ? t : Math.max(this.last, near(t, this.last));
    this.commit({
      videoFrames: s.videoFrames, audioFrames: s.audioFrames, videoBytes: s.videoBytes, audioBytes: s.audioBytes,
      fileMaxMs: this.last === null ? 0 : (this.last - this.fileFirst) / 90,
    });
    return true;
  }

  /**
   * A stream the scanner cannot read (an unknown stream_type, or private data without a known registration) is kept
   * in the file as it came, since segments are written whole; it is told once, as its frames and times go uncounted.
   */
  private reportUnknown(): void {
    for (const u of this.scanner.unknown.values()) {
      const key = `${u.pid}:${u.streamType}:${u.registration}`;
      if (this.reported.has(key)) continue;
      this.reported.add(key);
      this.anomalies++;
      const type = `0x${u.streamType.toString(16).padStart(2, '0')}`;
      this.hooks.log('warn', `the TS carries a stream liverec does not read (stream_type ${type}${u.registration ? `, registration '${u.registration}'` : ''}, PID ${u.pid}); it is kept in the file, its frames are not counted`, {
        code: 'TS_UNKNOWN_STREAM', pid: u.pid, streamType: u.streamType, registration: u.registration,
      });
    }
  }

  private decide(rawFirst: number | null): void {
    this.decided = true;
    const first = rawFirst === null || this.last === null ? rawFirst : near(rawFirst, this.last);
    if (first !== null && this.last !== null && first <= this.last && (this.last - first) / 90 <= REPEAT_WINDOW_MS && !this.discontinuity) {
      this.skip = true;
      this.repeats++;
      this.held = [];
      return;
    }
    const restarted = first !== null && this.last !== null && first <= this.last;
    if (restarted) this.hooks.log('warn', 'decode times went back: the stream restarted its timeline; starting a new file');
    if (this.discontinuity && this.isOpen) this.hooks.log('info', 'discontinuity in the playlist: new file');
    if (this.startSegment(this.discontinuity || restarted, null) || this.last === null) {
      this.fileFirst = first ?? 0;
      this.last = first;
    }
    for (const h of this.held) this.write(h);
    this.held = [];
  }
}
