// UpdateTimestampJump rule: rebases each file to start near 0 and closes gaps and backward jumps in a session.
import type { ProcessingContext, ProcessingRule, SessionItems } from '../pipeline/context.js';
import { type FlvTag, TagType } from '../tag.js';

export const JUMP_THRESHOLD = 500;
const AUDIO = { fallback: 22, min: 20, max: 24 };
const VIDEO = { fallback: 33, min: 15, max: 50 };

/** Session state; `| 0` everywhere because brec does this arithmetic in 32-bit integers. */
class TimestampStore {
  firstChunk = true;
  nextTimestampTarget = 0;
  lastOriginal = 0;
  currentOffset = 0;

  reset(): void {
    this.firstChunk = true;
    this.nextTimestampTarget = 0;
    this.lastOriginal = 0;
    this.currentOffset = 0;
  }
}

/** The timestamp the tag after this group should ideally have: per channel, last + one frame. */
function nextTarget(tags: readonly FlvTag[]): number {
  return Math.max(channelTarget(tags, TagType.Video, VIDEO), channelTarget(tags, TagType.Audio, AUDIO));
}

function channelTarget(tags: readonly FlvTag[], type: number, d: typeof AUDIO): number {
  let first: FlvTag | null = null;
  let second: FlvTag | null = null;
  let last: FlvTag | null = null;
  let count = 0;
  for (const t of tags) {
    if (t.type !== type) continue;
    if (!first) first = t;
    else if (!second) second = t;
    last = t;
    count++;
  }
  return targetOf(count, first?.timestamp ?? 0, second?.timestamp ?? 0, last?.timestamp ?? 0, d);
}

/** One channel's target from its tag count and its first, second and last (already rebased) timestamps. */
function targetOf(count: number, first: number, second: number, last: number, d: typeof AUDIO): number {
  if (count === 0) return 0;
  let duration = d.fallback;
  if (count >= 2) {
    const dt = (second - first) | 0;
    if (dt >= d.min && dt <= d.max) duration = dt;
  }
  return (duration + last) | 0;
}

/** What a plain data group (see src/flv/fast) tells this rule: per channel, its tag count and input timestamps. */
export interface PlainGroupTimes {
  videoCount: number;
  videoFirst: number;
  videoSecond: number;
  videoLast: number;
  audioCount: number;
  audioFirst: number;
  audioSecond: number;
  audioLast: number;
  /** Input timestamp of the group's last tag. */
  last: number;
}

/** The offset the rule applies to a data group in which it finds no jump (src/flv/fast rewrites with it as it reads). */
export function plainGroupOffset(session: SessionItems): number {
  return store(session).currentOffset;
}

/**
 * Whether the rule finds no jump in a data group whose first tag has input timestamp `first` and whose earliest
 * has `earliest` (a file's first group is judged by its earliest tag, the others by their first): then it adds
 * no comment and keeps its offset.
 */
export function plainGroupFits(session: SessionItems, first: number, earliest: number): boolean {
  const s = store(session);
  return s.firstChunk ? jumpOf(s, earliest, true) === 0 : jumpOf(s, first, false) === 0;
}

/** Does for such a group what `data()` does once its timestamps are rebased by `plainGroupOffset`'s offset. */
export function commitPlainGroup(session: SessionItems, g: PlainGroupTimes): void {
  const s = store(session);
  const o = s.currentOffset;
  s.firstChunk = false;
  s.lastOriginal = g.last;
  s.nextTimestampTarget = Math.max(
    targetOf(g.videoCount, (g.videoFirst - o) | 0, (g.videoSecond - o) | 0, (g.videoLast - o) | 0, VIDEO),
    targetOf(g.audioCount, (g.audioFirst - o) | 0, (g.audioSecond - o) | 0, (g.audioLast - o) | 0, AUDIO),
  );
}

const KEY = 'UpdateTimestampJumpRule';
const JUMPS_KEY = 'UpdateTimestampJumpRule.closed';

/** A forward jump the rule closed: the file's timeline runs on at `atMs` where `durationMs` of input time was skipped. */
export interface ClosedJump {
  atMs: number;
  durationMs: number;
}

/** Takes the forward jumps closed since the last call (gap accounting; the recorder drains them after each push). */
export function takeClosedJumps(session: SessionItems): ClosedJump[] {
  const list = session.get<ClosedJump[]>(JUMPS_KEY, () => []);
  return list.length === 0 ? list : list.splice(0);
}
const store = (session: SessionItems): TimestampStore => session.get(KEY, () => new TimestampStore());

/** brec's decision for a data group whose earliest tag is `current`: -1 a backward jump, 1 a gap, 0 continuous. */
function jumpOf(ts: TimestampStore, current: number, first: boolean): -1 | 0 | 1 {
  const diff = (current - ts.lastOriginal) | 0;
  if (diff < -JUMP_THRESHOLD || (first && diff < 0)) return -1;
  return diff > JUMP_THRESHOLD ? 1 : 0;
}

/**
 * The output timestamp that input timestamp `ts` of a not yet processed data group starting at `groupFirst`
 * will get (the rule's own decision, taken ahead of time). Live danmaku timing uses it to place the newest received media on the file's timeline.
 */
export function projectTimestamp(session: SessionItems, groupFirst: number, ts: number): number {
  const s = store(session);
  const offset = jumpOf(s, groupFirst, s.firstChunk) !== 0 ? (groupFirst - s.nextTimestampTarget) | 0 : s.currentOffset;
  return (ts - offset) | 0;
}

export class UpdateTimestampJumpRule implements ProcessingRule {
  run(ctx: ProcessingContext, next: () => void): void {
    next();
    const ts = store(ctx.session);
    for (const action of ctx.actions) {
      switch (action.kind) {
        case 'Data': this.data(ctx, ts, action.tags); break;
        case 'End': {
          const tag = action.tag;
          const diff = (tag.timestamp - ts.lastOriginal) | 0;
          tag.timestamp = diff < 0 || diff > JUMP_THRESHOLD ? ts.nextTimestampTarget : (tag.timestamp - ts.currentOffset) | 0;
          break;
        }
        case 'NewFile': ts.reset(); break;
        case 'Script': action.tag.timestamp = ts.nextTimestampTarget; break;
        case 'Header':
          if (action.videoHeader) action.videoHeader.timestamp = 0;
          if (action.audioHeader) action.audioHeader.timestamp = 0;
          ts.reset();
          break;
        default: break;
      }
    }
  }

  private data(ctx: ProcessingContext, ts: TimestampStore, tags: FlvTag[]): void {
    if (tags.length === 0) return;
    let current = tags[0]!.timestamp;
    const first = ts.firstChunk;
    if (first) {
      ts.firstChunk = false;
      for (const t of tags) if (t.timestamp < current) current = t.timestamp;
    }
    const diff = (current - ts.lastOriginal) | 0;
    const jump = jumpOf(ts, current, first);
    if (jump < 0) {
      ctx.addComment('TimestampJump', true, `时间戳变小, curr: ${current}, diff: ${diff}`);
      ts.currentOffset = (current - ts.nextTimestampTarget) | 0;
    } else if (jump > 0) {
      ctx.addComment('TimestampJump', true, `时间戳间隔过大, curr: ${current}, diff: ${diff}`);
      const skipped = (current - ts.currentOffset - ts.nextTimestampTarget) | 0;
      const jumps = ctx.session.get<ClosedJump[]>(JUMPS_KEY, () => []);
      // A file's first data starts its timeline (a split, a reconnect into a new file, the session's first file):
      // rebasing it to 0 loses nothing, so it is no gap. A tool run never drains the list: it is bounded.
      if (!first && skipped > 0 && jumps.length < 1000) jumps.push({ atMs: ts.nextTimestampTarget, durationMs: skipped });
      ts.currentOffset = (current - ts.nextTimestampTarget) | 0;
    }
    ts.lastOriginal = tags[tags.length - 1]!.timestamp;
    const offset = ts.currentOffset;
    if (offset !== 0) for (const t of tags) t.timestamp = (t.timestamp - offset) | 0;
    ts.nextTimestampTarget = nextTarget(tags);
  }
}
