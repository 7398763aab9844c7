// `tool`'s FLV read loop with the fast path: plain GOPs are checked, hashed and written where they were read.
import { readSync } from 'node:fs';
import { FlvError } from '../errors.js';
import type { StreamStep, FlvStream } from '../stream.js';
import type { TagArena } from '../tag-arena.js';
import { ARENA_SLAB_BYTES, wasmHash } from '../wasm-hash.js';
import type { FlvContextWriter } from '../writer/context-writer.js';
import { PlainGop } from './plain-gop.js';
import { Plain, closesDataGroup, plainKind } from './plain-tag.js';

// Why: with brec's rules run tag by tag, V8 optimised ~30 functions on every `tool fix`, and on a 300 MB input
// that compile time alone was ~0.09 CPU-s, 40 % of ffmpeg's whole run. Most GOPs of a healthy recording need
// no repair at all: every tag is plain (plain-tag.ts), the timestamps run on, the GOP repeats none of the last
// 16. For those the rules would only shift timestamps, so the GOP is checked in one WebAssembly loop and written
// from the read slabs with its headers rewritten in place. Anything else, from the first tag that is not plain,
// goes through the parser, the grouper and the rules exactly as before; both ways give the same bytes.

const CHUNK = 1 << 18;
const MIN_READ = 1 << 16;

/** What the loop drives: the full pipeline, its writer, and the arena the reads go into. */
export interface FastReadRun {
  readonly stream: FlvStream;
  readonly writer: FlvContextWriter;
  readonly reads: TagArena;
  error: unknown;
  /** Records a pipeline step's comments and error; false when the step failed. */
  take(step: StreamStep): boolean;
}

/** Whether `readFlvFast` can serve this run (WebAssembly hashing, a file writer, the tool preset). */
export function fastPathAvailable(run: FastReadRun): boolean {
  return wasmHash() !== null && run.writer.takesPlainGroups && run.stream.processor.toolStats !== null;
}

/**
 * The read position and what is pending: units in `mem` (a view of a slab's whole buffer) from `p` to `end`,
 * where the last one may be cut; the slow run not yet pushed; the plain group being collected.
 */
class FastLane {
  mem: Uint8Array = new Uint8Array(0);
  p = 0;
  end = 0;
  /** End of the slab `mem[p..end]` lies in. */
  limit = 0;
  /** Start of the units since the last push that go the full way (-1: none). */
  slowFrom = -1;
  collecting = false;
  /** The full pipeline got units since the last release. */
  slowUsed = false;
  /** A group was decided since the last release (the oldest held byte moved on). */
  decided = false;
  readonly gop: PlainGop;

  constructor(private readonly run: FastReadRun, moduleLoop: boolean) {
    const { processor, parser } = run.stream;
    this.gop = new PlainGop(wasmHash()!, { session: processor.session, toolStats: processor.toolStats!, writer: run.writer, parser }, moduleLoop);
  }

  /** Pushes whole units to the full pipeline; false when it failed (the run is over). */
  push(from: number, to: number): boolean {
    this.slowUsed = true;
    return this.run.take(this.run.stream.push(new Uint8Array(this.mem.buffer, from, to - from)));
  }

  pushSlow(): boolean {
    const from = this.slowFrom;
    this.slowFrom = -1;
    return from < 0 || from === this.p || this.push(from, this.p);
  }

  /** Writes the collected group, or hands it to the full pipeline; false when the run is over. */
  decide(): boolean {
    this.collecting = false;
    this.decided = true;
    try {
      if (this.gop.tryWrite()) return true;
    } catch (err) {
      if (!(err instanceof FlvError)) throw err;
      this.run.error ??= err;
      return false;
    }
    return this.handOver();
  }

  handOver(): boolean {
    this.slowUsed = true;
    return this.gop.handOver((units) => this.run.take(this.run.stream.push(units)));
  }

  /** Every whole unit from `p`; false when the run is over. */
  scan(): boolean {
    const mem = this.mem;
    const gop = this.gop;
    let p = this.p;
    if (this.collecting) p = gop.collect(mem, p, this.end, this.limit);
    while (this.end - p >= 15) {
      const size = (mem[p + 5]! << 16) | (mem[p + 6]! << 8) | mem[p + 7]!;
      if (this.end - p < 15 + size) break;
      if (plainKind(mem, p, size) === Plain.Keyframe) {
        this.p = p;
        if (!this.keyframe()) return false;
        if (this.collecting) {
          const q = gop.collect(mem, p, this.end, this.limit);
          if (q > p) {
            p = q;
            continue;
          }
          this.collecting = false; // (a keyframe is always taken: defensive, against a loop)
        }
      } else if (this.collecting) {
        // The group stops before this unit. Where the grouper would close it here too (a script, a header, an End
        // tag), it is complete; otherwise (a unit it would append that is not plain, a data gap, a full group)
        // all of it goes the full way.
        this.collecting = false;
        if (!(closesDataGroup(mem, p, size) ? this.decide() : this.handOver())) return false;
      }
      if (this.slowFrom < 0) this.slowFrom = p;
      p += 15 + size;
    }
    this.p = p;
    return this.pushSlow();
  }

  /**
   * A plain keyframe at `p`: the group before it is complete, and the next may go the fast way. Sets
   * `collecting` when the caller is to collect from `p`; otherwise the keyframe goes the full way.
   */
  private keyframe(): boolean {
    if (this.collecting && !this.decide()) return false;
    if (!this.pushSlow()) return false;
    const stream = this.run.stream;
    if (stream.grouper.keyframeWouldAppend) return true;
    // What pushing this keyframe to the grouper would do first: close and process the open group.
    if (stream.grouper.pending.length > 0 && !this.run.take(stream.flushGroup())) return false;
    this.collecting = true;
    return true;
  }

  /** Ends the input as the full pipeline would: the open group is flushed, a cut unit counted. */
  finish(): void {
    if (this.collecting && !this.decide()) return;
    if (!this.pushSlow()) return;
    if (this.end > this.p && !this.push(this.p, this.end)) return;
    this.run.take(this.run.stream.end());
  }

  /**
   * Gives back the slabs nothing pending views. Only once the oldest held byte may have moved on: while a group
   * is being collected it stays put (and releasing per read made the arena's bookkeeping hot enough to compile).
   */
  release(reads: TagArena): void {
    if (this.collecting && !this.decided && !this.slowUsed) return;
    this.decided = false;
    const stream = this.run.stream;
    const cut = this.end > this.p ? new Uint8Array(this.mem.buffer, this.p, this.end - this.p) : null;
    reads.releaseBefore((this.slowUsed ? stream.oldestLive(reads) : null) ?? this.gop.oldestView() ?? cut);
    if (this.slowUsed) stream.release();
    this.slowUsed = stream.grouper.pending.length > 0;
  }
}

/**
 * Reads the input from `fd`; errors end in `run.error` (and the steps taken). Returns the bytes read, the
 * groups it wrote itself, and whether it read to the end: not when a read cut the file header short (a pipe),
 * where the caller goes on pushing reads as they come.
 */
export function readFlvFast(
  fd: number, input: string, run: FastReadRun, onProgress?: (done: number) => void, moduleLoop = true,
): { done: number; whole: boolean; fastGroups: number } {
  const lane = new FastLane(run, moduleLoop);
  const moduleMemory = wasmHash()!.slabs.buffer;
  const reads = run.reads;
  let done = 0;
  let headerLeft = 9;
  const result = (whole: boolean): { done: number; whole: boolean; fastGroups: number } => ({ done, whole, fastGroups: lane.gop.written });
  for (;;) {
    const pending = lane.end - lane.p;
    const mem = lane.mem;
    const unit = pending >= 8 ? 15 + ((mem[lane.p + 5]! << 16) | (mem[lane.p + 6]! << 8) | mem[lane.p + 7]!) : 15;
    const want = Math.max(MIN_READ, unit - pending);
    // After a tag too large for a slab (it got memory of its own), reads go back to module memory, where the
    // module's loop collects; the JavaScript loop is only for such tags.
    if (mem.buffer !== moduleMemory && mem.length > 0 && pending + want <= ARENA_SLAB_BYTES) reads.seal();
    let region = reads.tail(want);
    let into = region;
    if (region.buffer !== mem.buffer || region.byteOffset !== lane.end) {
      // A new slab: the cut unit moves to its start, so that every unit lies whole in one slab.
      if (region.length < pending + want) region = reads.tail(pending + want);
      if (!lane.pushSlow()) return result(true);
      region.set(new Uint8Array(mem.buffer, lane.p, pending));
      reads.commit(pending);
      lane.mem = new Uint8Array(region.buffer);
      lane.p = region.byteOffset;
      lane.end = lane.p + pending;
      into = region.subarray(pending);
    }
    lane.limit = region.byteOffset + region.length;
    let n: number;
    try {
      n = readSync(fd, into, 0, Math.min(CHUNK, into.length), null);
    } catch (err) {
      run.error = new FlvError('INPUT_IO', `Cannot read ${input}: ${(err as Error).message}`, { cause: err });
      lane.finish();
      return result(true);
    }
    if (n === 0) {
      lane.finish();
      return result(true);
    }
    reads.commit(n);
    lane.end += n;
    done += n;
    if (headerLeft > 0) {
      // The file header goes to the parser, which checks it.
      const h = Math.min(headerLeft, n);
      headerLeft -= h;
      lane.slowFrom = lane.p;
      lane.p += h;
      if (!lane.pushSlow()) return result(true);
      if (headerLeft > 0) return result(false);
    }
    if (!lane.scan()) return result(true);
    lane.release(reads);
    onProgress?.(done);
  }
}
