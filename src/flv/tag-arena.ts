// Pooled memory for tag bodies: bump allocation from slabs that go back to a per-thread pool once no live tag views them.
import { ARENA_SLAB_BYTES, type WasmSlabRegion, wasmHash } from './wasm-hash.js';

// Why: copying every held tag out of a reused read buffer into its own ArrayBuffer made V8 account ~0.8 MB/s
// of external memory per 6 Mbps room, which kept triggering full mark-compact collections on every room
// thread (about a fifth of the recorder's CPU at 20 rooms). Slabs are allocated once and reused, so a room
// in steady state allocates no tag memory at all.

/** Slab size: a 1080p keyframe of a 6 Mbps stream (~200 KB) fits in one. */
export const SLAB_BYTES = ARENA_SLAB_BYTES;
/** Free slabs of ordinary memory a thread keeps for reuse (beyond this they are left to the GC). */
const MAX_FREE_SLABS = 48;
const ROUND = 64 * 1024;

/**
 * Free slabs shared by every arena of one thread (arenas are only used from their own thread). The thread's
 * pool hands out slabs of the hash module's memory first (tags there are hashed in place, with no copy),
 * then ordinary memory; a tag larger than a slab gets a slab of its own size.
 */
export class SlabPool {
  private readonly free: Uint8Array[] = [];
  private readonly region: WasmSlabRegion | null;
  private regionUsed = 0;

  constructor(readonly slabBytes = SLAB_BYTES, private readonly maxFree = MAX_FREE_SLABS, region: WasmSlabRegion | null = null) {
    this.region = region && region.slabBytes === slabBytes ? region : null;
  }

  /**
   * A slab of at least `n` bytes (reused when one is free). Module memory first, free or fresh: tags there are
   * hashed in place, and `tool`'s fast path collects them with the module's loop; an oversized slab of its own
   * that a large tag left in the free list is used only when no module slab is left.
   */
  take(n: number): Uint8Array {
    const r = this.region;
    if (r && n <= r.slabBytes) {
      const i = this.free.findLastIndex((s) => s.buffer === r.buffer);
      if (i >= 0) return this.remove(i);
      if (this.regionUsed < r.count) return new Uint8Array(r.buffer, r.start + r.slabBytes * this.regionUsed++, r.slabBytes);
    }
    const i = this.free.findLastIndex((s) => s.length >= n);
    if (i >= 0) return this.remove(i);
    // Unpooled Buffer memory: not zero-filled, and not carved from Node's small-buffer pool.
    return Buffer.allocUnsafeSlow(n <= this.slabBytes ? this.slabBytes : Math.ceil(n / ROUND) * ROUND);
  }

  private remove(i: number): Uint8Array {
    const s = this.free[i]!;
    this.free[i] = this.free[this.free.length - 1]!;
    this.free.pop();
    return s;
  }

  give(slab: Uint8Array): void {
    // Module memory is never left to the GC: it is this pool's for good.
    if (this.free.length < this.maxFree || slab.buffer === this.region?.buffer) this.free.push(slab);
  }

  get freeSlabs(): number {
    return this.free.length;
  }

  /** Where a slab that starts at `view`'s offset in shared module memory begins (null: its own buffer). */
  slabStart(view: Uint8Array): number | null {
    const r = this.region;
    if (!r || view.buffer !== r.buffer) return null;
    return r.start + Math.floor((view.byteOffset - r.start) / r.slabBytes) * r.slabBytes;
  }
}

let threadPool: SlabPool | null = null;

/** The pool of the calling thread. */
export function threadSlabPool(): SlabPool {
  threadPool ??= new SlabPool(SLAB_BYTES, MAX_FREE_SLABS, wasmHash()?.slabs ?? null);
  return threadPool;
}

interface Slab {
  mem: Uint8Array;
  used: number;
}

/**
 * One stream's tag memory, used as a queue: allocations are views into slabs, made in stream order, and
 * `releaseBefore(oldest live view)` returns the slabs before it. Single-threaded by design.
 */
export class TagArena {
  /** Oldest first; the last one is where allocations go. */
  private slabs: Slab[] = [];
  /** Slabs with a buffer of their own, by buffer; slabs in shared module memory, by start offset. */
  private readonly byBuffer = new Map<ArrayBufferLike, Slab>();
  private readonly byStart = new Map<number, Slab>();

  constructor(private readonly pool: SlabPool = threadSlabPool()) {}

  /** `n` bytes of arena memory, valid until a `release` whose live set does not include it. */
  alloc(n: number): Uint8Array {
    const view = this.tail(n);
    this.commit(n);
    return view.length === n ? view : new Uint8Array(view.buffer, view.byteOffset, n);
  }

  /**
   * The free rest of the newest slab, or of a fresh one when under `min` bytes are left: read into it, then
   * `commit` what was filled. Consecutive reads land back to back, so a tag spanning two reads stays one
   * contiguous range (the parser then needs no copy).
   */
  tail(min: number): Uint8Array {
    let head = this.slabs[this.slabs.length - 1];
    if (!head || head.mem.length - head.used < min) {
      const mem = this.pool.take(min);
      head = { mem, used: 0 };
      this.slabs.push(head);
      this.index(head, true);
    }
    return new Uint8Array(head.mem.buffer, head.mem.byteOffset + head.used, head.mem.length - head.used);
  }

  /** Leaves the rest of the newest slab unused: the next `tail()` starts a fresh one. */
  seal(): void {
    const head = this.slabs[this.slabs.length - 1];
    if (head) head.used = head.mem.length;
  }

  /** Marks `n` bytes of the last `tail()` as used. */
  commit(n: number): void {
    this.slabs[this.slabs.length - 1]!.used += n;
  }

  /** A copy of `src` in arena memory. */
  copy(src: Uint8Array): Uint8Array {
    const out = this.alloc(src.length);
    out.set(src);
    return out;
  }

  /** Whether `view` lies in this arena's memory. */
  owns(view: Uint8Array | null): boolean {
    return view !== null && this.slabOf(view) !== undefined;
  }

  private slabOf(view: Uint8Array): Slab | undefined {
    const start = this.pool.slabStart(view);
    return start === null ? this.byBuffer.get(view.buffer) : this.byStart.get(start);
  }

  private index(slab: Slab, add: boolean): void {
    const start = this.pool.slabStart(slab.mem);
    if (start === null) {
      if (add) this.byBuffer.set(slab.mem.buffer, slab);
      else this.byBuffer.delete(slab.mem.buffer);
    } else if (add) this.byStart.set(start, slab);
    else this.byStart.delete(start);
  }

  /**
   * Frees every slab allocated before the one `oldestLive` points into (everything but the newest slab, which
   * is emptied, when it is null). The caller passes the oldest view it still holds: allocations are made
   * and released in stream order, so nothing older is live.
   */
  releaseBefore(oldestLive: Uint8Array | null): void {
    const keepFrom = oldestLive ? this.slabOf(oldestLive) : undefined;
    const head = this.slabs[this.slabs.length - 1];
    if (!head) return;
    if (!keepFrom) head.used = 0;
    const stop = keepFrom ?? head;
    let i = 0;
    while (this.slabs[i] !== stop) {
      const s = this.slabs[i++]!;
      this.index(s, false);
      this.pool.give(s.mem);
    }
    if (i > 0) this.slabs = this.slabs.slice(i);
  }

  /** Returns every slab to the pool: nothing allocated here may be used afterwards. */
  dispose(): void {
    for (const s of this.slabs) this.pool.give(s.mem);
    this.slabs = [];
    this.byBuffer.clear();
    this.byStart.clear();
  }

  /** Bytes of slab memory this arena holds. */
  get heldBytes(): number {
    let n = 0;
    for (const s of this.slabs) n += s.mem.length;
    return n;
  }
}
