// One data group of plain units (a GOP), collected as read, then written where it lies or handed to the full pipeline.
import { Fingerprint64 } from '../fingerprint.js';
import { DATA_GAP_LIMIT } from '../grouping.js';
import type { FlvParser } from '../parser.js';
import type { SessionItems } from '../pipeline/context.js';
import { acceptPlainGroup } from '../rules/remove-duplicated-chunk.js';
import type { ToolStatsRule } from '../rules/tool-stats.js';
import { type PlainGroupTimes, commitPlainGroup, plainGroupFits, plainGroupOffset } from '../rules/update-timestamp-jump.js';
import { TagHashMode, type WasmHash } from '../wasm-hash.js';
import type { FlvContextWriter } from '../writer/context-writer.js';
import { Plain, plainKind } from './plain-tag.js';

/** Tags per group the fast path keeps (a 10-s GOP at 60 fps with audio is ~1,000); a longer one goes the full way. */
const CAPACITY = 4096;

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
  count = 0;
  /** Groups written by `tryWrite`. */
  written = 0;
  private readonly size = new Int32Array(CAPACITY);
  private readonly ts = new Int32Array(CAPACITY);
  /** Input timestamps per channel, in order (the tool's stats and the timestamp rule read them). */
  private readonly videoTs = new Int32Array(CAPACITY);
  private readonly audioTs = new Int32Array(CAPACITY);
  private videoCount = 0;
  private audioCount = 0;
  private readonly hi = new Int32Array(CAPACITY);
  private readonly lo = new Int32Array(CAPACITY);
  private readonly blocks: Block[] = [];
  private readonly fp = new Fingerprint64(false);
  /** The last `mem` seen, and whether it is the hash module's memory (hashed in place, no copy). */
  private lastMem: Uint8Array | null = null;
  private inModule = false;

  /** The timestamp rule's offset, which the group's headers are rewritten with as it is collected. */
  private offset = 0;
  /** The group's earliest input timestamp (a file's first group is judged by it). */
  private earliest = 0;

  constructor(private readonly wasm: WasmHash, private readonly ctx: PlainGopContext) {}

  /**
   * Adds the whole units from `mem[p]` up to `end` while they continue the group: plain, no data gap, room left
   * (a keyframe only as the group's first unit). Returns where it stopped: at a unit it did not take, at a cut
   * unit or at `end`. Each body is hashed as it is added, while it is in cache.
   */
  collect(mem: Uint8Array, p: number, end: number, limit: number): number {
    if (mem !== this.lastMem) {
      this.lastMem = mem;
      this.inModule = mem.buffer === this.wasm.slabs.buffer;
    }
    const wasm = this.wasm;
    const result = wasm.result;
    let b: Block | undefined = this.blocks[this.blocks.length - 1];
    if (b !== undefined && (b.mem !== mem || b.end !== p)) b = undefined;
    let n = this.count;
    while (end - p >= 15) {
      const size = (mem[p + 5]! << 16) | (mem[p + 6]! << 8) | mem[p + 7]!;
      if (end - p < 15 + size) break;
      const kind = plainKind(mem, p, size);
      if (kind === Plain.No || (kind === Plain.Keyframe) !== (n === 0)) break;
      const ts = (mem[p + 8]! << 16) | (mem[p + 9]! << 8) | mem[p + 10]! | (mem[p + 11]! << 24);
      if (n === CAPACITY || (n > 0 && ((ts - this.ts[n - 1]!) | 0) >= DATA_GAP_LIMIT)) break;
      const mode = kind === Plain.Audio ? TagHashMode.Whole : TagHashMode.Avc;
      if (this.inModule) wasm.x.tagHash(p + 15, size, mode);
      else wasm.tagHash(mem.subarray(p + 15, p + 15 + size), mode);
      this.hi[n] = result[0]!;
      this.lo[n] = result[1]!;
      this.size[n] = size;
      this.ts[n] = ts;
      if (kind === Plain.Audio) this.audioTs[this.audioCount++] = ts;
      else this.videoTs[this.videoCount++] = ts;
      if (n === 0) {
        this.offset = plainGroupOffset(this.ctx.session);
        this.earliest = ts;
      } else if (ts < this.earliest) this.earliest = ts;
      n++;
      // Rewritten now, while in cache, as the writer would write it (type and size stay as read): the
      // timestamp, a zero StreamID, and the previous tag's PreviousTagSize, which opens this unit. The parser
      // reads none of that but the timestamp, which handOver puts back.
      const t = (ts - this.offset) | 0;
      mem[p + 8] = (t >>> 16) & 0xff;
      mem[p + 9] = (t >>> 8) & 0xff;
      mem[p + 10] = t & 0xff;
      mem[p + 11] = (t >>> 24) & 0xff;
      mem[p + 12] = 0;
      mem[p + 13] = 0;
      mem[p + 14] = 0;
      if (b !== undefined) {
        const prev = b.lastSize + 11;
        mem[p] = prev >>> 24;
        mem[p + 1] = (prev >>> 16) & 0xff;
        mem[p + 2] = (prev >>> 8) & 0xff;
        mem[p + 3] = prev & 0xff;
      } else {
        b = { mem, start: p, end: p, limit, lastSize: 0 };
        this.blocks.push(b);
      }
      // The arena may hand out the slab that follows in memory: then a block runs on into it.
      b.end = p + 15 + size;
      b.lastSize = size;
      b.limit = limit;
      p += 15 + size;
    }
    this.count = n;
    return p;
  }

  /** A view of the group's oldest byte (for the arena's release), or null when it is empty. */
  oldestView(): Uint8Array | null {
    const b = this.blocks[0];
    return b ? new Uint8Array(b.mem.buffer, b.start, 1) : null;
  }

  /** The group's units as read, block by block, for the full pipeline (stops at the first `push` that fails). */
  handOver(push: (units: Uint8Array) => boolean): boolean {
    if (this.offset !== 0) this.restoreTimestamps();
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
    const ctx = this.ctx;
    const n = this.count;
    const offset = this.offset;
    if (!plainGroupFits(ctx.session, this.ts[0]!, this.earliest)) return false;
    const [hi, lo] = this.fp.reset().addInt(n).addIntPairs(this.hi, this.lo, n).digest();
    if (!acceptPlainGroup(ctx.session, hi, lo)) return false;
    const v = this.videoTs;
    const a = this.audioTs;
    const vn = this.videoCount;
    const an = this.audioCount;
    ctx.toolStats.addVideoRun(v, vn);
    ctx.toolStats.addAudioRun(a, an);
    const t: PlainGroupTimes = {
      videoCount: vn, videoFirst: v[0]!, videoSecond: v[1]!, videoLast: v[vn - 1]!,
      audioCount: an, audioFirst: a[0]!, audioSecond: a[1]!, audioLast: an > 0 ? a[an - 1]! : 0, last: this.ts[n - 1]!,
    };
    commitPlainGroup(ctx.session, t);
    let bytes = 0;
    for (const b of this.blocks) bytes += b.end - b.start;
    ctx.writer.writePlain({
      parts: this.parts(), tagCount: n, firstTs: (this.ts[0]! - offset) | 0, lastTs: (t.last - offset) | 0,
      videoCount: t.videoCount, firstVideoTs: (t.videoFirst - offset) | 0, lastVideoTs: (t.videoLast - offset) | 0,
    });
    ctx.parser.skipUnits(n, bytes);
    this.clear();
    this.written++;
    return true;
  }

  /** Puts back the timestamps `add` rewrote, for the parser. */
  private restoreTimestamps(): void {
    let i = 0;
    for (const b of this.blocks) {
      const mem = b.mem;
      for (let p = b.start; p < b.end; i++) {
        const ts = this.ts[i]!;
        mem[p + 8] = (ts >>> 16) & 0xff;
        mem[p + 9] = (ts >>> 8) & 0xff;
        mem[p + 10] = ts & 0xff;
        mem[p + 11] = (ts >>> 24) & 0xff;
        p += 15 + this.size[i]!;
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
    this.count = 0;
    this.videoCount = 0;
    this.audioCount = 0;
    this.blocks.length = 0;
  }
}

function putSize(out: Uint8Array, p: number, n: number): void {
  out[p] = n >>> 24;
  out[p + 1] = (n >>> 16) & 0xff;
  out[p + 2] = (n >>> 8) & 0xff;
  out[p + 3] = n & 0xff;
}
