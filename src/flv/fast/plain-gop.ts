// One data group of plain units (a GOP), collected as read, then written where it lies or handed to the full pipeline.
import { Fingerprint64 } from '../fingerprint.js';
import { DATA_GAP_LIMIT } from '../grouping.js';
import type { FlvParser } from '../parser.js';
import type { SessionItems } from '../pipeline/context.js';
import { acceptPlainGroup } from '../rules/remove-duplicated-chunk.js';
import type { ToolStatsRule } from '../rules/tool-stats.js';
import { type PlainGroupTimes, commitPlainGroup, plainGroupOffset } from '../rules/update-timestamp-jump.js';
import { writeTagHeader } from '../tag-encoding.js';
import { TagType } from '../tag.js';
import { TagHashMode, type WasmHash } from '../wasm-hash.js';
import type { FlvContextWriter } from '../writer/context-writer.js';
import { Plain } from './plain-tag.js';

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
  private readonly pos = new Float64Array(CAPACITY);
  private readonly size = new Int32Array(CAPACITY);
  private readonly ts = new Int32Array(CAPACITY);
  private readonly kind = new Uint8Array(CAPACITY);
  private readonly hi = new Int32Array(CAPACITY);
  private readonly lo = new Int32Array(CAPACITY);
  private readonly blocks: Block[] = [];
  private readonly fp = new Fingerprint64(false);
  private readonly pts = new Uint8Array(4);

  constructor(private readonly wasm: WasmHash) {}

  /**
   * Adds the unit at `mem[p]` (its body hashed now, while it is in cache). False, with nothing added, when the
   * grouper would not append it (a data gap) or the group is full: the caller then hands the group over.
   */
  add(mem: Uint8Array, p: number, size: number, kind: number, limit: number): boolean {
    const n = this.count;
    const ts = (mem[p + 8]! << 16) | (mem[p + 9]! << 8) | mem[p + 10]! | (mem[p + 11]! << 24);
    if (n === CAPACITY || (n > 0 && ((ts - this.ts[n - 1]!) | 0) >= DATA_GAP_LIMIT)) return false;
    const mode = kind === Plain.Audio ? TagHashMode.Whole : TagHashMode.Avc;
    if (mem.buffer === this.wasm.slabs.buffer) this.wasm.x.tagHash(p + 15, size, mode);
    else this.wasm.tagHash(mem.subarray(p + 15, p + 15 + size), mode);
    this.hi[n] = this.wasm.result[0]!;
    this.lo[n] = this.wasm.result[1]!;
    this.pos[n] = p;
    this.size[n] = size;
    this.ts[n] = ts;
    this.kind[n] = kind;
    this.count = n + 1;
    const b = this.blocks[this.blocks.length - 1];
    if (b && b.mem === mem && b.end === p) {
      // The arena may hand out the slab that follows in memory: then a block runs on into it.
      b.end = p + 15 + size;
      b.lastSize = size;
      b.limit = limit;
    } else this.blocks.push({ mem, start: p, end: p + 15 + size, limit, lastSize: size });
    return true;
  }

  /** A view of the group's oldest byte (for the arena's release), or null when it is empty. */
  oldestView(): Uint8Array | null {
    const b = this.blocks[0];
    return b ? new Uint8Array(b.mem.buffer, b.start, 1) : null;
  }

  /** The group's units as read, block by block, for the full pipeline (stops at the first `push` that fails). */
  handOver(push: (units: Uint8Array) => boolean): boolean {
    let ok = true;
    for (const b of this.blocks) if (ok) ok = push(new Uint8Array(b.mem.buffer, b.start, b.end - b.start));
    this.clear();
    return ok;
  }

  /**
   * Writes the group as the rules and the writer would, when they would change nothing but its timestamps:
   * no timestamp jump, not a repeat of a recent group. False, with nothing changed, otherwise.
   */
  tryWrite(ctx: PlainGopContext): boolean {
    const n = this.count;
    const offset = plainGroupOffset(ctx.session, this.ts[0]!);
    if (offset === null) return false;
    const fp = this.fp.reset().addInt(n);
    for (let i = 0; i < n; i++) fp.addInt(this.hi[i]!).addInt(this.lo[i]!);
    const [hi, lo] = fp.digest();
    if (!acceptPlainGroup(ctx.session, hi, lo)) return false;
    const t: PlainGroupTimes = { videoCount: 0, videoFirst: 0, videoSecond: 0, videoLast: 0, audioCount: 0, audioFirst: 0, audioSecond: 0, audioLast: 0, last: this.ts[n - 1]! };
    for (let i = 0; i < n; i++) {
      const ts = this.ts[i]!;
      if (this.kind[i] === Plain.Audio) {
        ctx.toolStats.addAudio(ts);
        if (t.audioCount === 0) t.audioFirst = ts;
        else if (t.audioCount === 1) t.audioSecond = ts;
        t.audioLast = ts;
        t.audioCount++;
      } else {
        ctx.toolStats.addVideo(ts);
        if (t.videoCount === 0) t.videoFirst = ts;
        else if (t.videoCount === 1) t.videoSecond = ts;
        t.videoLast = ts;
        t.videoCount++;
      }
    }
    commitPlainGroup(ctx.session, t);
    const bytes = this.patch(offset);
    ctx.writer.writePlain({
      parts: this.parts(), tagCount: n, firstTs: (this.ts[0]! - offset) | 0, lastTs: (t.last - offset) | 0,
      videoCount: t.videoCount, firstVideoTs: (t.videoFirst - offset) | 0, lastVideoTs: (t.videoLast - offset) | 0,
    });
    ctx.parser.skipUnits(n, bytes);
    this.clear();
    this.written++;
    return true;
  }

  /** Rewrites each tag in place as the writer would write it; returns the bytes the units took in the input. */
  private patch(offset: number): number {
    let i = 0;
    let bytes = 0;
    for (const b of this.blocks) {
      const mem = b.mem;
      for (let p = b.start; p < b.end; i++) {
        const size = this.size[i]!;
        writeTagHeader(mem, p + 4, mem[p + 4] === TagType.Audio ? TagType.Audio : TagType.Video, size, (this.ts[i]! - offset) | 0);
        p += 15 + size;
        // The next unit's PreviousTagSize field (or spare slab bytes): no reader looks at it again.
        if (p + 4 <= b.limit) writeSize(mem, p, size + 11);
        bytes += 15 + size;
      }
    }
    return bytes;
  }

  /** The output bytes: each block from its first tag header to its last PreviousTagSize. */
  private parts(): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (const b of this.blocks) {
      if (b.end + 4 <= b.limit) {
        out.push(new Uint8Array(b.mem.buffer, b.start + 4, b.end - b.start));
        continue;
      }
      // The block ends at its slab's end: the last PreviousTagSize goes separately (rare).
      const trailer = new Uint8Array(4);
      writeSize(trailer, 0, b.lastSize + 11);
      out.push(new Uint8Array(b.mem.buffer, b.start + 4, b.end - b.start - 4), trailer);
    }
    return out;
  }

  private clear(): void {
    this.count = 0;
    this.blocks.length = 0;
  }
}

function writeSize(out: Uint8Array, p: number, n: number): void {
  out[p] = n >>> 24;
  out[p + 1] = (n >>> 16) & 0xff;
  out[p + 2] = (n >>> 8) & 0xff;
  out[p + 3] = n & 0xff;
}
