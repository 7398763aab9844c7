// One spliced connection's tags: held until the splice plan is known, then shifted onto the file's timeline or dropped.
import { type FlvTag, TagType, cloneTag, isData, isHeader, isKeyframeData } from '../../flv/tag.js';
import { sameBytes } from '../../flv/rules/handle-new-header.js';
import type { Splice } from './splice-plan.js';

export class SpliceRoute {
  /** Tags held while the plan is worked out, and their bytes (over half the memory budget the plan is hurried). */
  private waiting: FlvTag[] = [];
  waitingBytes = 0;
  private splice: Splice | null = null;

  /**
   * @param first the session's first connection (a late start): its script tag and headers are the file's own.
   * @param storedHeader the sequence header the file was written with (video or audio), if any.
   */
  constructor(private readonly first: boolean, private readonly storedHeader: (type: number) => FlvTag | null) {}

  /** Still holding: no plan yet. */
  get waitingForPlan(): boolean {
    return this.splice === null;
  }

  /** Everything held so far (read by each try of the plan). */
  get held(): readonly FlvTag[] {
    return this.waiting;
  }

  /** Nothing is left to do to the connection's tags: no shift, nothing to drop, nothing to filter (a first connection). */
  get identity(): boolean {
    const s = this.splice;
    return this.first && s !== null && s.shift === 0 && s.dropVideoUpTo === null && s.dropAudioUpTo === null;
  }

  /** One tag of the connection into `out` (or held); true when a keyframe was held (the plan can be made). */
  route(t: FlvTag, out: FlvTag[]): boolean {
    if (t.type === TagType.Script && !this.first) return false; // the CDN's onMetaData again
    if (isHeader(t) && !this.first && this.sameHeader(t)) return false;
    const s = this.splice;
    if (!s) {
      this.waiting.push(cloneTag(t));
      this.waitingBytes += t.size + 64;
      return isKeyframeData(t);
    }
    if (!isData(t)) {
      out.push(t);
      return false;
    }
    t.timestamp = (t.timestamp + s.shift) | 0;
    if (t.type === TagType.Video && s.dropVideoUpTo !== null) {
      if (t.timestamp <= s.dropVideoUpTo) return false;
      s.dropVideoUpTo = null; // past the overlap: from here on every frame is new
    }
    if (t.type === TagType.Audio && s.dropAudioUpTo !== null) {
      if (t.timestamp <= s.dropAudioUpTo) return false;
      s.dropAudioUpTo = null;
    }
    out.push(t);
    return false;
  }

  /** The plan is known: tags flow from now on. Returns what was held (the caller writes it, after the fill). */
  settle(plan: Splice): FlvTag[] {
    this.splice = { ...plan, fill: [] }; // the fill is written by the caller: its frames are not kept for the connection
    const held = this.waiting;
    this.waiting = [];
    this.waitingBytes = 0;
    return held;
  }

  /** Drops what was held (the connection ended before its first keyframe). */
  clear(): void {
    this.waiting = [];
    this.waitingBytes = 0;
  }

  private sameHeader(t: FlvTag): boolean {
    const prev = this.storedHeader(t.type);
    return prev !== null && sameBytes(prev, t);
  }
}
