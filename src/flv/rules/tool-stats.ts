// Tool stats rule: frame counts, frame-duration histogram and frame rate of the input, for `tool analyze`.
import type { ProcessingContext, ProcessingRule } from '../pipeline/context.js';
import { TagFlag, TagType } from '../tag.js';

/** brec's FlvStats: FrameCount, FramePerSecond, FrameDurations (ms → count, most frequent first). */
export interface FlvStats {
  frameCount: number;
  fps: number;
  frameDurations: Record<string, number>;
}

/** Frame durations counted in an array below this (ms); others, rare, in a map. */
const SMALL = 256;

/** Histogram of one channel's frame durations, kept incrementally (memory does not grow with the input). */
class Channel {
  count = 0;
  private last = 0;
  // Why two stores: almost every duration is a frame's 10-100 ms, and an array count costs less than a Map update per tag.
  private readonly small = new Int32Array(SMALL);
  private readonly durations = new Map<number, number>();

  add(ts: number): void {
    if (this.count++ > 0) {
      const d = ts - this.last;
      if (d >= 0 && d < SMALL) this.small[d]!++;
      else this.durations.set(d, (this.durations.get(d) ?? 0) + 1);
    }
    this.last = ts;
  }

  /** `add` for each of ts[0..n), in one loop. */
  addRun(ts: Int32Array, n: number): void {
    let last = this.last;
    let i = 0;
    if (n > 0 && this.count === 0) last = ts[i++]!;
    for (; i < n; i++) {
      const d = ts[i]! - last;
      if (d >= 0 && d < SMALL) this.small[d]!++;
      else this.durations.set(d, (this.durations.get(d) ?? 0) + 1);
      last = ts[i]!;
    }
    this.count += n;
    this.last = last;
  }

  stats(): FlvStats {
    const all = [...this.durations];
    this.small.forEach((c, d) => {
      if (c > 0) all.push([d, c]);
    });
    const sorted = all.sort((a, b) => b[1] - a[1] || b[0] - a[0]);
    // brec weights each duration by count / frameCount (not by the number of durations): kept as is.
    let weighted = 0;
    for (const [d, c] of sorted) weighted += d * (c / this.count);
    return {
      frameCount: this.count,
      fps: weighted > 0 ? 1000 / weighted : 0,
      frameDurations: Object.fromEntries(sorted.map(([d, c]) => [String(d), c])),
    };
  }
}

/** Records input data timestamps before the rules run (video: all data tags; audio: Flag None only). */
export class ToolStatsRule implements ProcessingRule {
  private readonly video = new Channel();
  private readonly audio = new Channel();

  run(ctx: ProcessingContext, next: () => void): void {
    for (const a of ctx.actions) {
      if (a.kind !== 'Data') continue;
      for (const t of a.tags) {
        if (t.type === TagType.Video) this.addVideo(t.timestamp);
        else if (t.type === TagType.Audio && t.flag === TagFlag.None) this.addAudio(t.timestamp);
      }
    }
    next();
  }

  /** One video data tag's input timestamp (also fed by src/flv/fast for the groups it handles). */
  addVideo(ts: number): void {
    this.video.add(ts);
  }

  /** One audio data tag's (Flag None) input timestamp. */
  addAudio(ts: number): void {
    this.audio.add(ts);
  }

  /** addVideo for ts[0..n) (src/flv/fast). */
  addVideoRun(ts: Int32Array, n: number): void {
    this.video.addRun(ts, n);
  }

  /** addAudio for ts[0..n). */
  addAudioRun(ts: Int32Array, n: number): void {
    this.audio.addRun(ts, n);
  }

  result(): { video: FlvStats; audio: FlvStats } {
    return { video: this.video.stats(), audio: this.audio.stats() };
  }
}
