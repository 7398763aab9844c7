// A reconnect's gap waits for the first frame after it: it is a gap of the file that frame is written to.
import type { FlvTag } from '../../flv/tag.js';

/** What the capture's file output tells a watcher (see capture-standard.ts). */
export interface FileWatcher {
  opened(): void;
  data(tags: readonly FlvTag[]): void;
}

/**
 * The splice knows how much was lost, not which file will hold the frames on either side: a split asked for while
 * the file waited starts a new file with the GOP that was open at the drop (the hole then lies inside the new
 * file), new sequence headers start one with the first frame after the hole (the hole lies between two files), and
 * a stop may close the file before anything follows. So the gap is held from the moment the written end's group has
 * gone out, and recorded where the next data is written, at that data's place on the file's timeline; a file
 * opened first begins with that data and lacks nothing on its own timeline.
 */
export class HeldGap implements FileWatcher {
  private durationMs: number | null = null;

  /**
   * @param record records the gap on the open file (file timeline ms).
   * @param dropped the gap fell between two files (for the log).
   */
  constructor(
    private readonly record: (startMs: number, durationMs: number) => void,
    private readonly dropped: (durationMs: number) => void,
  ) {}

  /** Everything before the hole has been written: the next data written follows it. */
  hold(durationMs: number): void {
    this.durationMs = durationMs;
  }

  opened(): void {
    const d = this.durationMs;
    if (d === null) return;
    this.durationMs = null;
    this.dropped(d);
  }

  data(tags: readonly FlvTag[]): void {
    const d = this.durationMs;
    if (d === null || tags.length === 0) return;
    this.durationMs = null;
    this.record(tags[0]!.timestamp, d);
  }
}
