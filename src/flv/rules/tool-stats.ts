// Tool stats rule: frame counts, frame-duration histogram and frame rate of the input, for `tool analyze`.
import type { ProcessingContext, ProcessingRule } from '../pipeline/context.js';
import { TagFlag, TagType } from '../tag.js';

/** brec's FlvStats: FrameCount, FramePerSecond, FrameDurations (ms → count, most frequent first). */
export interface FlvStats {
  frameCount: number;
  fps: number;
  frameDurations: Record<string, number>;
}

/** Records input data timestamps before the rules run (video: all data tags; audio: Flag None only). */
export class ToolStatsRule implements ProcessingRule {
  private readonly video: number[] = [];
  private readonly audio: number[] = [];

  run(ctx: ProcessingContext, next: () => void): void {
    for (const a of ctx.actions) {
      if (a.kind !== 'Data') continue;
      for (const t of a.tags) {
        if (t.type === TagType.Video) this.video.push(t.timestamp);
        else if (t.type === TagType.Audio && t.flag === TagFlag.None) this.audio.push(t.timestamp);
      }
    }
    next();
  }

  result(): { video: FlvStats; audio: FlvStats } {
    return { video: calculate(this.video), audio: calculate(this.audio) };
  }
}

function calculate(ts: readonly number[]): FlvStats {
  const counts = new Map<number, number>();
  for (let i = 1; i < ts.length; i++) {
    const d = ts[i]! - ts[i - 1]!;
    counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  // brec weights each duration by count / frameCount (not by the number of durations): kept as is.
  let weighted = 0;
  for (const [d, c] of sorted) weighted += d * (c / ts.length);
  const fps = weighted > 0 ? 1000 / weighted : 0;
  return { frameCount: ts.length, fps, frameDurations: Object.fromEntries(sorted.map(([d, c]) => [String(d), c])) };
}
