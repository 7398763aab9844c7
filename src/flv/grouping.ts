// Grouping tags into pipeline actions: script, end, header bursts, and data runs (one GOP each), as brec does.
import type { PipelineAction } from './pipeline/actions.js';
import { FlvError } from './errors.js';
import { type GroupLimits, GroupMeter } from './group-limits.js';
import { type BodyAlloc, ParsedTag, ownBuffer } from './parsed-tag.js';
import { type FlvTag, TagType, isData, isEnd, isHeader, isKeyframeData, isNonKeyframeData } from './tag.js';

/** A non-keyframe tag this far (ms) after the previous one starts a new data group. */
export const DATA_GAP_LIMIT = 24999;

type OpenKind = 'Header' | 'Data';

/**
 * Push-style grouping. `push(tag, out)` appends every action the tag completes; `flush(out)` ends the
 * stream. Script and End tags are single-tag groups; consecutive headers form one Header action; data runs
 * until the next keyframe (leading audio is folded into the first GOP, a late AAC header may ride along).
 */
export class TagGrouper {
  private kind: OpenKind | null = null;
  private tags: FlvTag[] = [];
  /** Tags before this index were already detached (copied out of any reused read buffer). */
  private detached = 0;
  private allAudio = true;
  private allAudioHeaders = true;
  /** Set for live capture: the open group's size and span are bounded (none for files, as in brec). */
  readonly meter: GroupMeter | null;

  constructor(limits?: GroupLimits) {
    this.meter = limits ? new GroupMeter(limits) : null;
  }

  push(tag: FlvTag, out: PipelineAction[]): void {
    // A capped group is emitted as it is and the tag opens the next group of the same kind, exactly as a
    // data gap does in brec: the rules already handle data groups that do not start with a keyframe.
    if (this.kind !== null && this.appends(tag) && !this.meter?.full(tag.size, tag.timestamp, this.kind === 'Data')) {
      this.add(tag);
      return;
    }
    this.flush(out);
    if (tag.type === TagType.Script) out.push({ kind: 'Script', tag });
    else if (isEnd(tag)) out.push({ kind: 'End', tag });
    else if (isHeader(tag)) this.open('Header', tag);
    else if (isData(tag)) this.open('Data', tag);
    else throw new FlvError('UNKNOWN_TAG_TYPE', `No grouping rule accepts tag #${tag.index} (type ${tag.type}, flag ${tag.flag}).`);
  }

  /** Emits the open group, if any. */
  flush(out: PipelineAction[]): void {
    if (this.kind === 'Header') out.push({ kind: 'Header', allTags: this.tags, videoHeader: null, audioHeader: null });
    else if (this.kind === 'Data') out.push({ kind: 'Data', tags: this.tags });
    this.kind = null;
    this.tags = [];
    this.detached = 0;
    this.meter?.reset(0);
  }

  /**
   * Whether a keyframe pushed now would join the open group instead of closing it (an all-audio data group
   * absorbs it); src/flv/fast only takes over a group at a keyframe that closes what is open.
   */
  get keyframeWouldAppend(): boolean {
    return this.kind === 'Data' && this.allAudio;
  }

  /** Tags held in the open group (not yet emitted). */
  get pending(): readonly FlvTag[] {
    return this.tags;
  }

  /**
   * Copies held tag bodies that live in `buffer`, so the caller may reuse that memory. Called after every
   * read, so only the tags added since the previous call are looked at (a GOP holds hundreds of tags).
   * Returns the index of the first tag looked at.
   */
  detach(buffer: ArrayBufferLike, stripFiller = false, alloc: BodyAlloc = ownBuffer): number {
    const from = this.detached;
    for (let i = this.detached; i < this.tags.length; i++) {
      const t = this.tags[i]!;
      if (!t.data || t.data.buffer !== buffer) continue;
      if (t instanceof ParsedTag) t.detachCopy(stripFiller, alloc);
      else t.data = new Uint8Array(t.data); // always a copy, even for a Buffer
    }
    this.detached = this.tags.length;
    return from;
  }

  private open(kind: OpenKind, tag: FlvTag): void {
    this.kind = kind;
    this.tags = [];
    this.detached = 0;
    this.allAudio = true;
    this.allAudioHeaders = true;
    this.meter?.reset(tag.timestamp);
    this.add(tag);
  }

  private add(tag: FlvTag): void {
    this.tags.push(tag);
    this.meter?.add(tag.size);
    if (tag.type !== TagType.Audio) this.allAudio = false;
    else if (!isHeader(tag)) this.allAudioHeaders = false;
  }

  private appends(tag: FlvTag): boolean {
    if (this.kind === 'Header') return isHeader(tag);
    // `| 0`: brec subtracts in 32-bit integers, so extreme timestamps wrap the same way.
    if (isNonKeyframeData(tag)) return ((tag.timestamp - this.tags[this.tags.length - 1]!.timestamp) | 0) < DATA_GAP_LIMIT;
    if (isKeyframeData(tag)) return this.allAudio;
    return tag.type === TagType.Audio && isHeader(tag) && this.allAudioHeaders;
  }
}
