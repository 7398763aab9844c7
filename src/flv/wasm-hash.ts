// A tiny WebAssembly module (assembled here, byte by byte) that hashes memory with a 64-bit multiply-xor state.
//
// Why WebAssembly: JavaScript has no cheap 64-bit multiply, so the JS fingerprint runs two coupled 32-bit
// lanes at ~1.5 GB/s, and it was a quarter of the engine's CPU time. Here each 8-byte word costs one
// state update with i64 multiplies (MurmurHash64A's mixing), ~4.5 GB/s. Bytes are copied into the
// module's memory first (one memcpy per tag body, ~10 GB/s), unless they already live there: tag arenas
// take their slabs from module memory (tag-arena.ts), so recorded tags are hashed where they lie.
//
// Bodies of 1 KiB and more go through 128-bit SIMD first, where the CPU has it, in 128-byte stripes: 32
// lanes of 32 bits, each updated as rotl((lane ^ word) · P, 13), then folded one 64-bit word at a time into
// the state. That update is a bijection of the lane for a fixed word and of the word for a fixed lane, and so
// is every 64-bit step, so inputs of equal length that differ in one word still never collide. In cache it
// runs at ~25 GB/s against ~5 for the word loop (this machine's EPYC); straight after a file read, ~1.8×.

const M = 0xc6a4a7935bd1e995n;
const PAGE = 64 * 1024;
/** Where bodies that live elsewhere are copied to be hashed: any FLV tag body (< 16 MiB) fits. */
const SCRATCH_BYTES = 16 * 1024 * 1024;
/** Arena slabs in module memory (virtual until touched: unused slabs cost no RSS). */
export const ARENA_SLAB_BYTES = 256 * 1024;
const ARENA_SLABS = 128;
/** Scratch, a guard page, the slabs, a guard page (the absorb tail load may read 7 bytes past a range). */
const MEMORY_PAGES = (SCRATCH_BYTES + PAGE + ARENA_SLABS * ARENA_SLAB_BYTES + PAGE) / PAGE;
const C1 = 0xff51afd7ed558ccdn;
const SEED = 0x9e3779b97f4a7c15n;

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

function sleb(v: bigint): number[] {
  const out: number[] = [];
  v = BigInt.asIntN(64, v);
  for (;;) {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    if ((v === 0n && !(b & 0x40)) || (v === -1n && b & 0x40)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

const I32 = 0x7f;
const I64 = 0x7e;
const V128 = 0x7b;
/** SIMD instructions: the 0xfd prefix and the opcode as an unsigned LEB128. */
const simd = (opcode: number): number[] => [0xfd, ...uleb(opcode)];
const v = {
  load: simd(0x00), const: simd(0x0c), extractLaneI64: simd(0x1d), or: simd(0x50), xor: simd(0x51),
  shl: simd(0xab), shrU: simd(0xad), mul: simd(0xb5),
};
/** Accumulators (independent multiply chains, to hide the multiply's latency) and the bytes one round takes. */
const ACCS = 8;
const STRIPE = 16 * ACCS;
/** Shorter ranges (audio tags) go to the word loop alone: seeding and folding the lanes costs more than it saves. */
const SIMD_MIN = 1024;
/** The lane multiplier (odd: multiplying is a bijection) and the lanes' starting values. */
const LANE_P = 0x9e3779b1;
const laneSeed = (j: number): number[] => {
  const b = Buffer.alloc(16);
  for (let i = 0; i < 4; i++) b.writeUInt32LE((Math.imul(0x85ebca6b, 4 * j + i + 1) ^ 0x27d4eb2f) >>> 0, 4 * i);
  return [...v.const, ...b];
};
const splatP = (): number[] => {
  const b = Buffer.alloc(16);
  for (let i = 0; i < 4; i++) b.writeUInt32LE(LANE_P, 4 * i);
  return [...v.const, ...b];
};
const op = {
  end: 0x0b, block: 0x02, loop: 0x03, if: 0x04, void: 0x40, br: 0x0c, brIf: 0x0d, call: 0x10,
  localGet: 0x20, localSet: 0x21, localTee: 0x22, globalGet: 0x23, globalSet: 0x24,
  i64Load: 0x29, i32Const: 0x41, i64Const: 0x42,
  i32LtU: 0x49, i32GeU: 0x4f, i32Add: 0x6a, i32And: 0x71, return: 0x0f,
  i64Sub: 0x7d, i64Mul: 0x7e, i64And: 0x83, i64Xor: 0x85, i64Shl: 0x86, i64ShrU: 0x88,
  i32WrapI64: 0xa7, i64ExtendI32U: 0xad,
};
const c64 = (v: bigint): number[] => [op.i64Const, ...sleb(v)];
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const name = (s: string): number[] => [...uleb(s.length), ...Buffer.from(s, 'ascii')];
const func = (locals: number[][], code: number[]): number[] => {
  const body = [...vec(locals), ...code, op.end];
  return [...uleb(body.length), ...body];
};

/** f(k) = ((k·M) ^ ((k·M) >> 47))·M, with k in local `k`; leaves f(k) on the stack. */
const scramble = (k: number): number[] => [...c64(M), op.i64Mul, op.localTee, k, op.localGet, k, ...c64(47n), op.i64ShrU, op.i64Xor, ...c64(M), op.i64Mul];
/** fmix64 first steps of global 0 into local 0; leaves the mixed value on the stack. */
const finalise = [op.globalGet, 0, op.localSet, 0, op.localGet, 0, op.localGet, 0, ...c64(33n), op.i64ShrU, op.i64Xor, ...c64(C1), op.i64Mul, op.localTee, 0, op.localGet, 0, ...c64(33n), op.i64ShrU, op.i64Xor];

/**
 * stripes(ptr, len) → where the word loop goes on. With SIMD: every whole stripe through the v128
 * accumulators (locals 4…), folded into the state by mix() one 64-bit lane at a time. Without: nothing.
 */
function stripes(useSimd: boolean): number[] {
  if (!useSimd) return func([], [op.localGet, 0]);
  const lanes: number[] = [];
  for (let j = 0; j < ACCS; j++) {
    const acc = 4 + j;
    lanes.push(
      op.localGet, acc, op.localGet, 2, ...v.load, 0, ...uleb(16 * j), ...v.xor, ...splatP(), ...v.mul, op.localTee, acc,
      op.i32Const, 13, ...v.shl, op.localGet, acc, op.i32Const, 19, ...v.shrU, ...v.or, op.localSet, acc,
    );
  }
  const fold: number[] = [];
  for (let j = 0; j < ACCS; j++) for (let lane = 0; lane < 2; lane++) fold.push(op.localGet, 4 + j, ...v.extractLaneI64, lane, op.call, 0);
  return func([[2, I32], [ACCS, V128]], [
    op.localGet, 1, op.i32Const, ...sleb(BigInt(SIMD_MIN)), op.i32LtU, op.if, op.void, op.localGet, 0, op.return, op.end,
    ...Array.from({ length: ACCS }, (_, j) => [...laneSeed(j), op.localSet, 4 + j]).flat(),
    op.localGet, 0, op.localSet, 2,
    op.localGet, 0, op.localGet, 1, op.i32Const, ...sleb(BigInt(-STRIPE)), op.i32And, op.i32Add, op.localSet, 3,
    op.block, op.void, op.loop, op.void,
    op.localGet, 2, op.localGet, 3, op.i32GeU, op.brIf, 1,
    ...lanes,
    op.localGet, 2, op.i32Const, ...sleb(BigInt(STRIPE)), op.i32Add, op.localSet, 2,
    op.br, 0, op.end, op.end,
    ...fold,
    op.localGet, 3,
  ]);
}

function assemble(useSimd: boolean): Uint8Array {
  const types = section(1, vec([[0x60, 1, I64, 0], [0x60, 0, 0], [0x60, 1, I32, 0], [0x60, 0, 1, I32], [0x60, 2, I32, I32, 0], [0x60, 2, I32, I32, 1, I32]]));
  const funcs = section(3, vec([[0], [1], [4], [2], [3], [3], [5]]));
  // Fixed size (minimum = maximum): growing would detach the buffer that arena slabs and their views use.
  const memory = section(5, vec([[0x01, ...uleb(MEMORY_PAGES), ...uleb(MEMORY_PAGES)]]));
  const globals = section(6, vec([[I64, 1, ...c64(SEED), op.end]]));
  const exports = section(7, vec([
    [...name('mem'), 2, 0], [...name('h'), 3, 0], [...name('reset'), 0, 1], [...name('absorb'), 0, 2],
    [...name('mixInt'), 0, 3], [...name('hi'), 0, 4], [...name('lo'), 0, 5],
  ]));
  // mix(k): h = (h ^ f(k)) · M
  const mix = func([], [op.globalGet, 0, op.localGet, 0, ...scramble(0), op.i64Xor, ...c64(M), op.i64Mul, op.globalSet, 0]);
  const reset = func([], [...c64(SEED), op.globalSet, 0]);
  // absorb(ptr, len): mix(len); every whole 8-byte word of memory[ptr, ptr + len); then the masked tail word
  // (its load may read up to 7 bytes past the range: the layout keeps a page after every region).
  // Locals: 0 ptr, 1 len, 2 p, 3 end8, 4 h, 5 k, 6 tail length.
  const absorb = func([[2, I32], [2, I64], [1, I32]], [
    op.localGet, 1, op.i64ExtendI32U, op.call, 0,
    op.localGet, 0, op.localGet, 1, op.call, 6, op.localSet, 2,
    op.globalGet, 0, op.localSet, 4,
    op.localGet, 0, op.localGet, 1, op.i32Const, ...sleb(-8n), op.i32And, op.i32Add, op.localSet, 3,
    op.block, op.void, op.loop, op.void,
    op.localGet, 2, op.localGet, 3, op.i32GeU, op.brIf, 1,
    op.localGet, 4, op.localGet, 2, op.i64Load, 0, 0, ...scramble(5), op.i64Xor, ...c64(M), op.i64Mul, op.localSet, 4,
    op.localGet, 2, op.i32Const, 8, op.i32Add, op.localSet, 2,
    op.br, 0, op.end, op.end,
    op.localGet, 4, op.globalSet, 0,
    op.localGet, 1, op.i32Const, 7, op.i32And, op.localTee, 6,
    op.if, op.void,
    op.localGet, 3, op.i64Load, 0, 0,
    ...c64(1n), op.localGet, 6, op.i64ExtendI32U, ...c64(3n), op.i64Shl, op.i64Shl, ...c64(1n), op.i64Sub, op.i64And,
    op.call, 0, op.end,
  ]);
  const mixInt = func([], [op.localGet, 0, op.i64ExtendI32U, op.call, 0]);
  const hi = func([[1, I64]], [...finalise, ...c64(32n), op.i64ShrU, op.i32WrapI64]);
  const lo = func([[1, I64]], [...finalise, op.i32WrapI64]);
  const code = section(10, [...uleb(7), ...mix, ...reset, ...absorb, ...mixInt, ...hi, ...lo, ...stripes(useSimd)]);
  return Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...types, ...funcs, ...memory, ...globals, ...exports, ...code]);
}

/** The parts of the WebAssembly API used here (tsconfig's lib has no DOM/WebAssembly declarations). */
interface WasmMemory { readonly buffer: ArrayBuffer }
interface WasmGlobal { value: unknown }
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}

interface Exports {
  mem: WasmMemory;
  h: WasmGlobal;
  reset(): void;
  absorb(ptr: number, len: number): void;
  mixInt(v: number): void;
  hi(): number;
  lo(): number;
}

/** The module's functions with its memory view; null when WebAssembly is unavailable (e.g. --jitless). */
export interface WasmHash {
  readonly x: Exports;
  /** Absorbs `u8`: in place when it lies in module memory (an arena slab), else copied to the scratch first. */
  absorbBytes(u8: Uint8Array): void;
  /** Slabs for tag arenas inside module memory, hashed in place; see tag-arena.ts. */
  readonly slabs: WasmSlabRegion;
}

/** Memory set aside for arena slabs: `count` slabs of `slabBytes` from byte `start` of `buffer`. */
export interface WasmSlabRegion {
  readonly buffer: ArrayBuffer;
  readonly start: number;
  readonly count: number;
  readonly slabBytes: number;
}

let cached: WasmHash | null | undefined;

/** The SIMD module, or the scalar one where WebAssembly SIMD is not available (it hashes to other values). */
function compile(wa: WasmApi): object {
  if (process.env.LIVEREC_HASH_SIMD !== '0') {
    try {
      return new wa.Module(assemble(true));
    } catch {
      // no SIMD: the scalar module below
    }
  }
  return new wa.Module(assemble(false));
}

/** The module of the calling thread (created on first use). */
export function wasmHash(): WasmHash | null {
  if (cached !== undefined) return cached;
  try {
    const wa = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
    const x = new wa.Instance(compile(wa)).exports as Exports;
    const buffer = x.mem.buffer;
    const scratch = new Uint8Array(buffer, 0, SCRATCH_BYTES);
    cached = {
      x,
      slabs: { buffer, start: SCRATCH_BYTES + PAGE, count: ARENA_SLABS, slabBytes: ARENA_SLAB_BYTES },
      absorbBytes(u8: Uint8Array): void {
        if (u8.buffer === buffer) {
          x.absorb(u8.byteOffset, u8.length);
          return;
        }
        if (u8.length > SCRATCH_BYTES) throw new RangeError(`Cannot hash ${u8.length} bytes at once (FLV tag bodies are under 16 MiB)`);
        scratch.set(u8, 0);
        x.absorb(0, u8.length);
      },
    };
  } catch {
    cached = null;
  }
  return cached;
}
