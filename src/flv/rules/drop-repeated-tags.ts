// Tags resent inside a group (a CDN repeating its last chunk mid-GOP): dropped so no channel's timestamps go back (beyond brec).
import type { ProcessingContext, ProcessingRule, SessionItems } from '../pipeline/context.js';
import { type FlvTag, TagFlag, TagType } from '../tag.js';
import { tagContentHash } from './remove-duplicated-chunk.js';
import { JUMP_THRESHOLD } from './update-timestamp-jump.js';

/**
 * brec drops a repeated chunk only when it is a whole group (RemoveDuplicatedChunk); a repeat of a few tags inside a
 * GOP goes to its file with timestamps up to a chunk back, which decoders report as non-monotonic DTS. Per channel,
 * a tag is dropped when its input timestamp is behind the last one kept by at most JUMP_THRESHOLD (farther back is
 * a timeline change, which UpdateTimestampJump rebases), or equal to it with the same content.
 */
/** What tells two tags apart: brec's DataHash where the tag has one (XML input), else its body's hash. */
function identity(tag: FlvTag): string {
  if (tag.dataHash !== null) return tag.dataHash;
  tagContentHash(tag); // cached: RemoveDuplicatedChunk has hashed the group already
  return `${tag.hashHi ?? ''}:${tag.hashLo ?? ''}`;
}

class ChannelClock {
  last: number | null = null;
  /** Identity of the last tag kept (null: unknown, a plain group written by the fast path). */
  lastId: string | null = null;

  /** Whether a tag at `ts` may follow; `tag` supplies the content for the equal-timestamp case. */
  accepts(ts: number, tag: FlvTag | null): boolean {
    if (this.last === null) return true;
    const back = (this.last - ts) | 0;
    if (back > 0 && back <= JUMP_THRESHOLD) return false;
    if (back !== 0 || !tag || this.lastId === null) return true;
    return identity(tag) !== this.lastId;
  }

  keep(ts: number, tag: FlvTag | null): void {
    this.last = ts;
    this.lastId = tag ? identity(tag) : null;
  }
}

class Clocks {
  readonly video = new ChannelClock();
  readonly audio = new ChannelClock();
}

const clocksOf = (session: SessionItems): Clocks => session.get('DropRepeatedTagsRule', () => new Clocks());

/**
 * For a plain group (src/flv/fast) with these input timestamps per channel: whether every one moves forward (else the
 * full pipeline must look at it). Changes nothing; `commitPlainTimes` records a group that is written.
 */
export function plainTimesForward(session: SessionItems, video: Int32Array, videoCount: number, audio: Int32Array, audioCount: number): boolean {
  const c = clocksOf(session);
  const forward = (clock: ChannelClock, ts: Int32Array, n: number): boolean => {
    if (n === 0) return true;
    if (clock.last !== null && ((ts[0]! - clock.last) | 0) <= 0 && ((clock.last - ts[0]!) | 0) <= JUMP_THRESHOLD) return false;
    for (let i = 1; i < n; i++) if (((ts[i]! - ts[i - 1]!) | 0) <= 0) return false;
    return true;
  };
  return forward(c.video, video, videoCount) && forward(c.audio, audio, audioCount);
}

export function commitPlainTimes(session: SessionItems, video: Int32Array, videoCount: number, audio: Int32Array, audioCount: number): void {
  const c = clocksOf(session);
  if (videoCount > 0) c.video.keep(video[videoCount - 1]!, null);
  if (audioCount > 0) c.audio.keep(audio[audioCount - 1]!, null);
}

export class DropRepeatedTagsRule implements ProcessingRule {
  run(ctx: ProcessingContext, next: () => void): void {
    const clocks = clocksOf(ctx.session);
    let dropped = 0;
    ctx.perActionRun((action, out) => {
      if (action.kind !== 'Data') {
        out.push(action);
        return true;
      }
      const kept: FlvTag[] = [];
      for (const t of action.tags) {
        const clock = t.type === TagType.Video ? clocks.video : t.type === TagType.Audio ? clocks.audio : null;
        if (!clock || (t.flag & TagFlag.Header) !== 0) {
          kept.push(t);
          continue;
        }
        if (!clock.accepts(t.timestamp, t)) {
          dropped++;
          continue;
        }
        clock.keep(t.timestamp, t);
        kept.push(t);
      }
      if (kept.length > 0) out.push(kept.length === action.tags.length ? action : { ...action, tags: kept });
      return true;
    });
    if (dropped > 0) ctx.addComment('RepeatingData', true, `${dropped} 个重复的标签`);
    next();
  }
}
