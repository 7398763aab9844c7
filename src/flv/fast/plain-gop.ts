// One data group of plain units (a GOP), collected as read, then written where it lies or handed to the full pipeline.
import { Fingerprint64 } from '../fingerprint.js';
import { MIX_SEED1, MIX_SEED2 } from '../mix32.js';
import type { FlvParser } from '../parser.js';
import { writeTagTimestamp } from '../tag-encoding.js';
import type { SessionItems } from '../pipeline/context.js';
import { acceptPlainGroup } from '../rules/remove-duplicated-chunk.js';
import { commitPlainTimes, plainTimesForward } from '../rules/drop-repeated-tags.js';
import type { ToolStatsRule } from '../rules/tool-stats.js';
import { type PlainGroupTimes, commitPlainGroup, plainGroupFits, plainGroupOffset } from '../rules/update-timestamp-jump.js';
import { CONTROL } from '../wasm-collect.js';
import { COLLECT_CAPACITY, type WasmHash } from '../wasm-hash.js';
import type { FlvContextWriter } from '../writer/context-writer.js';
import { collectInJs } from './collect-js.js';

// A group holds at most COLLECT_CAPACITY tags (a 10-s GOP at 60 fps with audio is ~1,000); a longer one goes the
// full way. Its tags' records and the loop's state live in the hash module's memory (wasm-collect.ts).

/** Units that lie back to back in one slab: `start` is the first unit's PreviousTagSize, `end` the last body's end. */
interface Block {
  mem: Uint8Array;
  start: number;
  end: number;
  /** End of the slab: bytes up to here may be overwritten once the group is decided. */
  limit: number;
  /** Body size of the block's last tag. */
  lastSize: number;
}

/** What deciding a group needs from the stream it belongs to. */
export interface PlainGopContext {
  session: SessionItems;
  toolStats: ToolStatsRule;
  writer: FlvContextWriter;
  parser: FlvParser;
}

export class PlainGop {
  /** Groups written by `tryWrite`. */
  written = 0;
  private readonly blocks: Block[] = [];
  private readonly fp = new Fingerprint64(false);
  private readonly records: Int32Array;
  private readonly control: Int32Array;
  /** The last `mem` seen, and whether it is the hash module's memory (collected by the module's loop). */
  private lastMem: Uint8Array | null = null;
  private inModule = false;

  /** `moduleLoop` false: always the JavaScript loop (tests compare the two). */
  constructor(private readonly wasm: WasmHash, private readonly ctx: PlainGopContext, private readonly moduleLoop = true) {
    this.records = wasm.collected.records;
    this.control = wasm.collected.control;
    this.clear();
  }

  /**
   * Adds the whole units from `mem[p]` up to `end` while they continue the group: plain, no data gap, room left
   * (a keyframe only as the group's first unit). Returns where it stopped: at a unit it did not take, at a cut
   * unit or at `end`. Each body is hashed, and its header rewritten as the writer would write it (the timestamp
   * rule's offset, a zero StreamID, the previous tag's PreviousTagSize), while it is in cache.
   */
  collect(mem: Uint8Array, p: number, end: number, limit: number): number {
    if (mem !== this.lastMem) {
      this.lastMem = mem;
      this.inModule = mem.buffer === this.wasm.slabs.buffer;
    }
    const control = this.control;
    let b: Block | undefined = this.blocks[this.blocks.length - 1];
    if (b !== undefined && (b.mem !== mem || b.end !== p)) b = undefined;
    if (control[CONTROL.count] === 0) control[CONTROL.offset] = plainGroupOffset(this.ctx.session);
    control[CONTROL.continues] = b === undefined ? 0 : 1;
    const q = this.inModule && this.moduleLoop
      ? this.wasm.x.collect(p, end, COLLECT_CAPACITY)
      : collectInJs(this.wasm, mem, p, end, COLLECT_CAPACITY);
    if (q === p) return q;
    const lastSize = control[CONTROL.lastSize]!;
    // The arena may hand out the slab that follows in memory: then a block runs on into it.
    if (b === undefined) this.blocks.push({ mem, start: p, end: q, limit, lastSize });
    else {
      b.end = q;
      b.lastSize = lastSize;
      b.limit = limit;
    }
    return q;
  }

  /** A view of the group's oldest byte (for the arena's release), or null when it is empty. */
  oldestView(): Uint8Array | null {
    const b = this.blocks[0];
    return b ? new Uint8Array(b.mem.buffer, b.start, 1) : null;
  }

  /** The group's units as read, block by block, for the full pipeline (stops at the first `push` that fails). */
  handOver(push: (units: Uint8Array) => boolean): boolean {
    if (this.control[CONTROL.offset] !== 0) this.restoreTimestamps();
    let ok = true;
    for (const b of this.blocks) if (ok) ok = push(new Uint8Array(b.mem.buffer, b.start, b.end - b.start));
    this.clear();
    return ok;
  }

  /**
   * Writes the group as the rules and the writer would, when they would change nothing but its timestamps:
   * no timestamp jump, not a repeat of a recent group. False, with nothing changed, otherwise.
   */
  tryWrite(): boolean {
    const { ctx, records: r, control } = this;
    const n = control[CONTROL.count]!;
    const offset = control[CONTROL.offset]!;
    if (!plainGroupFits(ctx.session, r[1]!, control[CONTROL.earliest]!)) return false;
    const { videoTs: v, audioTs: a } = this.wasm.collected;
    const vn = control[CONTROL.videoCount]!;
    const an = control[CONTROL.audioCount]!;
    if (!plainTimesForward(ctx.session, v, vn, a, an)) return false;
    const [hi, lo] = this.fp.resume(control[CONTROL.mixA]!, control[CONTROL.mixB]!).addInt(n).digest();
    if (!acceptPlainGroup(ctx.session, hi, lo)) return false;
    commitPlainTimes(ctx.session, v, vn, a, an);
    ctx.toolStats.addVideoRun(v, vn);
    ctx.toolStats.addAudioRun(a, an);
    const t: PlainGroupTimes = {
      videoCount: vn, videoFirst: v[0]!, videoSecond: v[1]!, videoLast: v[vn - 1]!,
      audioCount: an, audioFirst: a[0]!, audioSecond: a[1]!, audioLast: an > 0 ? a[an - 1]! : 0, last: r[4 * (n - 1) + 1]!,
    };
    commitPlainGroup(ctx.session, t);
    let bytes = 0;
    for (const b of this.blocks) bytes += b.end - b.start;
    ctx.writer.writePlain({
      parts: this.parts(), tagCount: n, firstTs: (r[1]! - offset) | 0, lastTs: (t.last - offset) | 0,
      videoCount: vn, firstVideoTs: (t.videoFirst - offset) | 0, lastVideoTs: (t.videoLast - offset) | 0,
    });
    ctx.parser.skipUnits(n, bytes);
    this.clear();
    this.written++;
    return true;
  }

  /** Puts back the timestamps `collect` rewrote, for the parser. */
  private restoreTimestamps(): void {
    const r = this.records;
    let i = 0;
    for (const b of this.blocks) {
      const mem = b.mem;
      for (let p = b.start; p < b.end; i++) {
        writeTagTimestamp(mem, p + 8, r[4 * i + 1]!);
        p += 15 + r[4 * i]!;
      }
    }
  }

  /** The output bytes: each block from its first tag header to its last PreviousTagSize. */
  private parts(): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (const b of this.blocks) {
      // The last PreviousTagSize goes where the next unit's starts (no reader looks at it again) or, at a
      // slab's end, separately.
      if (b.end + 4 <= b.limit) {
        putSize(b.mem, b.end, b.lastSize + 11);
        out.push(new Uint8Array(b.mem.buffer, b.start + 4, b.end - b.start));
        continue;
      }
      const trailer = new Uint8Array(4);
      putSize(trailer, 0, b.lastSize + 11);
      out.push(new Uint8Array(b.mem.buffer, b.start + 4, b.end - b.start - 4), trailer);
    }
    return out;
  }

  private clear(): void {
    const control = this.control;
    control[CONTROL.count] = 0;
    control[CONTROL.videoCount] = 0;
    control[CONTROL.audioCount] = 0;
    control[CONTROL.continues] = 0;
    control[CONTROL.mixA] = MIX_SEED1;
    control[CONTROL.mixB] = MIX_SEED2;
    this.blocks.length = 0;
  }
}

function putSize(out: Uint8Array, p: number, n: number): void {
  out[p] = n >>> 24;
  out[p + 1] = (n >>> 16) & 0xff;
  out[p + 2] = (n >>> 8) & 0xff;
  out[p + 3] = n & 0xff;
}
