// Parser → grouping → rules → writer for one session: push bytes, get processed groups back.
import { FlvError } from './errors.js';
import type { GroupLimits } from './group-limits.js';
import { TagGrouper } from './grouping.js';
import { FlvParser } from './parser.js';
import type { PipelineAction } from './pipeline/actions.js';
import { tagContentHash } from './rules/remove-duplicated-chunk.js';
import { FlvProcessor, type FlvProcessorOptions, type ProcessedGroup } from './processor.js';
import type { FlvTag } from './tag.js';
import type { TagArena } from './tag-arena.js';
import type { FlvContextWriter } from './writer/context-writer.js';
import { wasmHash } from './wasm-hash.js';

const moduleMemory = wasmHash()?.slabs.buffer ?? null;

/** What one `push`/`end` did. */
export interface StreamStep {
  groups: ProcessedGroup[];
  /** A fatal input error; the groups before it were processed and written. */
  error: FlvError | null;
  /** Reason of the first Disconnect among `groups`, if any. */
  disconnect: string | null;
  /** Bytes the writer wrote during this step. */
  bytesWritten: number;
  /** Bytes the writer wrote for each of `groups` (0: nothing reached the file, e.g. data before any header). */
  written: number[];
}

export interface FlvStreamOptions extends FlvProcessorOptions {
  /**
   * Live capture: tags copied out of a reused read buffer (or assembled from several reads) leave their AVC
   * filler NALUs behind. Output is unchanged (RemoveFillerData drops them anyway); memory traffic is not.
   */
  stripFillerOnCopy?: boolean;
  /** Where processed groups go; null to only analyse. */
  writer?: FlvContextWriter | null;
  /** Live capture: tags over this size are a fatal TAG_TOO_LARGE (refused from the tag header). */
  maxTagBytes?: number;
  /** Live capture: groups end at these limits even without a keyframe (see group-limits.ts). */
  groupLimits?: GroupLimits;
  /**
   * Where copies of held tags go (and units assembled from several chunks); the caller calls `release()`
   * after each push (and after `detach`), and disposes the arena when the stream is done.
   */
  arena?: TagArena;
}

/**
 * One recording session (or one tool run) over an FLV byte stream. Each completed group is processed and
 * written before `push` returns. On a parse error the pending group is still processed and written, so
 * the output holds everything before the problem; after that the stream is failed.
 */
export class FlvStream {
  readonly parser: FlvParser;
  readonly grouper: TagGrouper;
  readonly processor: FlvProcessor;
  readonly writer: FlvContextWriter | null;
  private readonly stripFiller: boolean;
  private readonly actions: PipelineAction[] = [];
  private readonly arena: TagArena | null;
  private readonly alloc: ((n: number) => Uint8Array) | undefined;

  constructor(options: FlvStreamOptions = {}) {
    this.processor = new FlvProcessor(options);
    const arena = this.arena = options.arena ?? null;
    this.alloc = arena ? (n) => arena.alloc(n) : undefined;
    this.parser = new FlvParser({ stripFillerOnCopy: options.stripFillerOnCopy, maxTagBytes: options.maxTagBytes, alloc: this.alloc });
    this.grouper = new TagGrouper(options.groupLimits);
    this.stripFiller = options.stripFillerOnCopy === true;
    this.writer = options.writer ?? null;
  }

  /** Offers the next bytes (views into `chunk` are kept until their group is processed). */
  push(chunk: Uint8Array): StreamStep {
    const r = this.parser.push(chunk);
    // Bytes read straight into module memory (`tool` reads into arena slabs) are hashed now, while they are in
    // cache, rather than when their group completes ~2 s of stream later: 14 % fewer samples in the hash on a
    // 2 GiB repair. Other chunks are hashed when their tags are copied into the arena (detach) or grouped.
    if (chunk.buffer === moduleMemory) for (const t of r.tags) tagContentHash(t);
    return this.feed(r.tags, r.error, false);
  }

  /** Ends the input: flushes the last group. Does not close the writer. */
  end(): StreamStep {
    const r = this.parser.end();
    return this.feed(r.tags, r.error, true);
  }

  /** Processes and writes the open group now, as the next keyframe would (for src/flv/fast). */
  flushGroup(): StreamStep {
    return this.feed([], null, true);
  }

  /** Feeds already-parsed tags (e.g. from an XML tag list); `last` flushes the final group. */
  pushTags(tags: readonly FlvTag[], last = false): StreamStep {
    return this.feed(tags, null, last);
  }

  /** Bytes held between pushes (parser + open group, with the per-tag cost); the basis of the memory budget. */
  get heldBytes(): number {
    return this.parser.heldBytes + (this.grouper.meter?.bytes ?? 0);
  }

  /** Copies held bytes that live in `buffer` so the caller can reuse it. */
  detach(buffer: ArrayBufferLike): void {
    this.parser.detach(buffer);
    const from = this.grouper.detach(buffer, this.stripFiller, this.alloc);
    if (!this.arena) return;
    // Hashed now, while the bytes just read are still in cache, rather than when the group completes ~2 s
    // later and a few MB of other rooms' data have gone through the cache (see tagContentHash).
    const pending = this.grouper.pending;
    for (let i = from; i < pending.length; i++) tagContentHash(pending[i]!);
  }

  /**
   * Gives arena memory back once no held tag views it: everything before the open group was processed and
   * written (or dropped) by the time `push` returned, and no rule keeps a data tag's body past its group.
   */
  release(): void {
    if (this.arena) this.arena.releaseBefore(this.oldestLive(this.arena));
  }

  /** The oldest view of `arena`'s memory the stream still holds (open group first, then a partial unit). */
  oldestLive(arena: TagArena): Uint8Array | null {
    for (const t of this.grouper.pending) if (arena.owns(t.data)) return t.data;
    for (const v of this.parser.heldViews) if (arena.owns(v)) return v;
    return null;
  }

  private feed(tags: readonly FlvTag[], error: FlvError | null, last: boolean): StreamStep {
    const step: StreamStep = { groups: [], error, disconnect: null, bytesWritten: 0, written: [] };
    const out = this.actions;
    try {
      for (const t of tags) {
        this.grouper.push(t, out);
        if (out.length) this.drain(step);
      }
      if (last || error) {
        this.grouper.flush(out);
        this.drain(step);
      }
    } catch (err) {
      out.length = 0;
      if (err instanceof FlvError) step.error ??= err;
      else throw err;
    }
    return step;
  }

  private drain(step: StreamStep): void {
    const out = this.actions;
    for (let i = 0; i < out.length; i++) {
      const g = this.processor.process(out[i]!);
      step.groups.push(g);
      if (g.disconnect !== null && step.disconnect === null) step.disconnect = g.disconnect;
      const w = this.writer ? this.writer.write(g.actions) : 0;
      step.bytesWritten += w;
      step.written.push(w);
    }
    out.length = 0;
  }
}
