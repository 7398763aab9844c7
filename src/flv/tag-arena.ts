// Pooled memory for tag bodies: bump allocation from slabs that go back to a per-thread pool once no live tag views them.
//
// Why: copying every held tag out of a reused read buffer into its own ArrayBuffer made V8 account ~0.8 MB/s
// of external memory per 6 Mbps room, which kept triggering full mark-compact collections on every room
// thread (about a fifth of the recorder's CPU at 20 rooms). Slabs are allocated once and reused, so a room
// in steady state allocates no tag memory at all.

/** Default slab size: a 1080p keyframe of a 6 Mbps stream (~200 KB) fits in one. */
export const SLAB_BYTES = 256 * 1024;
/** Free slabs a thread keeps for reuse (beyond this they are left to the GC). */
const MAX_FREE_SLABS = 48;
const ROUND = 64 * 1024;

/** Free slabs shared by every arena of one thread (arenas are only used from their own thread). */
export class SlabPool {
  private readonly free: Uint8Array[] = [];

  constructor(readonly slabBytes = SLAB_BYTES, private readonly maxFree = MAX_FREE_SLABS) {}

  /** A slab of at least `n` bytes (reused when one is free). */
  take(n: number): Uint8Array {
    for (let i = this.free.length - 1; i >= 0; i--) {
      const s = this.free[i]!;
      if (s.length >= n) {
        this.free[i] = this.free[this.free.length - 1]!;
        this.free.pop();
        return s;
      }
    }
    // Unpooled Buffer memory: not zero-filled, and not carved from Node's small-buffer pool.
    return Buffer.allocUnsafeSlow(n <= this.slabBytes ? this.slabBytes : Math.ceil(n / ROUND) * ROUND);
  }

  give(slab: Uint8Array): void {
    if (this.free.length < this.maxFree) this.free.push(slab);
  }

  get freeSlabs(): number {
    return this.free.length;
  }
}

let threadPool: SlabPool | null = null;

/** The pool of the calling thread. */
export function threadSlabPool(): SlabPool {
  threadPool ??= new SlabPool();
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
  private readonly byBuffer = new Map<ArrayBufferLike, Slab>();

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
      this.byBuffer.set(mem.buffer, head);
    }
    return new Uint8Array(head.mem.buffer, head.mem.byteOffset + head.used, head.mem.length - head.used);
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
    return view !== null && this.byBuffer.has(view.buffer);
  }

  /**
   * Frees every slab allocated before the one `oldestLive` points into (everything but the newest slab, which
   * is emptied, when it is null). The caller passes the oldest view it still holds: allocations are made
   * and released in stream order, so nothing older is live.
   */
  releaseBefore(oldestLive: Uint8Array | null): void {
    const keepFrom = oldestLive ? this.byBuffer.get(oldestLive.buffer) : undefined;
    const head = this.slabs[this.slabs.length - 1];
    if (!head) return;
    if (!keepFrom) head.used = 0;
    const stop = keepFrom ?? head;
    let i = 0;
    while (this.slabs[i] !== stop) {
      const s = this.slabs[i++]!;
      this.byBuffer.delete(s.mem.buffer);
      this.pool.give(s.mem);
    }
    if (i > 0) this.slabs = this.slabs.slice(i);
  }

  /** Returns every slab to the pool: nothing allocated here may be used afterwards. */
  dispose(): void {
    for (const s of this.slabs) this.pool.give(s.mem);
    this.slabs = [];
    this.byBuffer.clear();
  }

  /** Bytes of slab memory this arena holds. */
  get heldBytes(): number {
    let n = 0;
    for (const s of this.slabs) n += s.mem.length;
    return n;
  }
}
