// A room's danmaku recording: one brec-format XML beside each video file, timed on that file's own timeline.
import type { DanmakuEvent } from '../bilibili/danmaku/commands.js';
import type { RoomSettings } from '../config/fields.js';
import { formatLocal } from '../time.js';
import { MediaClock, type MediaTimeline } from './media-clock.js';
import { type DanmakuRecordInfo, danmakuElement, isRecordedCommand, prologue } from './xml-format.js';
import { DanmakuXmlFile } from './xml-file.js';

export interface DanmakuRecorderHost {
  settings(): RoomSettings;
  info(): Omit<DanmakuRecordInfo, 'startTime'>;
  log(level: 'info' | 'warn', msg: string, fields?: Record<string, unknown>): void;
}

/** Buffered elements are also flushed when this much time passed since the last flush (beyond brec: a quiet room). */
const FLUSH_AFTER_MS = 5000;

/** `a/b/name.flv` → `a/b/name.xml` (brec: Path.ChangeExtension). */
export function danmakuPathFor(videoPath: string): string {
  return `${videoPath.replace(/\.[^./\\]*$/, '')}.xml`;
}

export class DanmakuRecorder implements MediaTimeline {
  private file: DanmakuXmlFile | null = null;
  private videoPath = '';
  private readonly clock = new MediaClock();
  private counter = 0;
  private flushedAt = 0;
  /** Messages waiting for the check phase (see `offer`). */
  private queue: DanmakuEvent[] = [];

  constructor(private readonly host: DanmakuRecorderHost) {}

  fileOpened(path: string): void {
    this.drain();
    this.closeFile();
    const now = performance.now();
    this.clock.reset(now);
    if (!this.host.settings().RecordDanmaku) return;
    const xmlPath = danmakuPathFor(path);
    try {
      this.file = new DanmakuXmlFile(xmlPath, prologue({ ...this.host.info(), startTime: formatLocal() }));
      this.videoPath = path;
      this.counter = 0;
      this.flushedAt = now;
      this.checkFailed();
    } catch (err) {
      this.host.log('warn', `danmaku: cannot create ${xmlPath}: ${(err as Error).message}`, { code: 'DANMAKU_FILE_IO' });
    }
  }

  fileClosed(path: string): void {
    this.drain();
    if (this.file && path === this.videoPath) this.closeFile();
  }

  mediaPosition(ms: number): void {
    if (!this.file) return; // the clock only matters for an open file, and is reset when one opens
    const now = performance.now();
    this.clock.report(ms, now);
    if (this.file && this.file.pendingCount > 0 && now - this.flushedAt >= FLUSH_AFTER_MS) this.flush(now);
  }

  /**
   * Offers a danmaku command; the four recorded kinds go into the open file (if any), the rest is ignored. They are
   * placed in the check phase of the event loop: stream data that became readable in the same poll round is taken
   * in first, so a busy thread that serves the chat socket before the stream socket does not date the chat early.
   */
  offer(ev: DanmakuEvent): void {
    if (!this.file || !isRecordedCommand(ev)) return;
    if (this.queue.push(ev) === 1) setImmediate(() => this.drain());
  }

  /** Closes the open file (session end, worker going down). */
  close(): void {
    this.drain();
    this.closeFile();
  }

  private drain(): void {
    const queue = this.queue;
    if (queue.length === 0) return;
    this.queue = [];
    for (const ev of queue) this.write(ev);
  }

  private write(ev: DanmakuEvent): void {
    const file = this.file;
    if (!file) return;
    const s = this.host.settings();
    const now = performance.now();
    const element = danmakuElement(ev, this.clock.at(now), {
      raw: s.RecordDanmakuRaw, superChat: s.RecordDanmakuSuperChat, gift: s.RecordDanmakuGift, guard: s.RecordDanmakuGuard,
    });
    if (element) file.append(element);
    // brec counts every recorded kind, written or not, and flushes when the count read before incrementing reaches the interval.
    if (this.counter++ >= s.RecordDanmakuFlushInterval) {
      this.counter = 0;
      this.flush(now);
    }
  }

  private flush(now: number): void {
    this.file?.flush();
    this.flushedAt = now;
    this.checkFailed();
  }

  private checkFailed(): void {
    const f = this.file;
    if (f?.failed) {
      this.host.log('warn', `danmaku: writing ${f.path} failed; no more danmaku for this file: ${f.failed.message}`, { code: 'DANMAKU_FILE_IO' });
      this.file = null;
    }
  }

  private closeFile(): void {
    const f = this.file;
    if (!f) return;
    this.file = null;
    f.close();
    if (f.failed) this.host.log('warn', `danmaku: writing ${f.path} failed: ${f.failed.message}`, { code: 'DANMAKU_FILE_IO' });
  }
}
