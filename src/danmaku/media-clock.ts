// Where "now" is on the open video file's timeline: the newest received media position, advanced by wall time.

/**
 * What a capture reports about its files, whatever their container (FLV, MP4, TS): files opening and closing,
 * and media progress. Captures call `mediaPosition` whenever new media arrives (every read is fine).
 */
export interface MediaTimeline {
  /** A recording file was opened; positions reported after this are on its timeline. */
  fileOpened(path: string): void;
  /** The file was closed (also when the worker is going down). */
  fileClosed(path: string): void;
  /**
   * The newest media received so far, as a position on the open file's timeline: milliseconds since the
   * file's first written media timestamp, with the repair's timestamp corrections already applied.
   */
  mediaPosition(ms: number): void;
}

/** Beyond this much wall time without new media the stream is stalled: the clock stops instead of running on. */
export const MAX_EXTRAPOLATION_MS = 1000;

/**
 * The rule: a message that arrives at wall time W gets `P + min(W - A, MAX_EXTRAPOLATION_MS)`, where P is the
 * last reported media position and A the wall time it was reported. Until a file reports any position, the
 * wall time since the file opened is used (brec's stopwatch).
 */
export class MediaClock {
  private position: number | null = null;
  private reportedAt = 0;
  private openedAt = 0;

  reset(now: number): void {
    this.position = null;
    this.openedAt = now;
  }

  report(ms: number, now: number): void {
    this.position = ms;
    this.reportedAt = now;
  }

  at(now: number): number {
    if (this.position === null) return Math.max(0, now - this.openedAt);
    return Math.max(0, this.position + Math.min(Math.max(0, now - this.reportedAt), MAX_EXTRAPOLATION_MS));
  }
}
