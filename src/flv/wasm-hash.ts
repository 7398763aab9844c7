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

import { HASH_MODULE_SCALAR, HASH_MODULE_SIMD } from './wasm-hash-bytes.js';
import { I32, I64, V128, c64, func, name, op, section, simd, sleb, uleb, vec } from './wasm-asm.js';
import { type CollectLayout, collectCode } from './wasm-collect.js';

const M = 0xc6a4a7935bd1e995n;
const PAGE = 64 * 1024;
/** Where bodies that live elsewhere are copied to be hashed: any FLV tag body (< 16 MiB) fits. */
const SCRATCH_BYTES = 16 * 1024 * 1024;
/** Arena slabs in module memory (virtual until touched: unused slabs cost no RSS). */
export const ARENA_SLAB_BYTES = 256 * 1024;
const ARENA_SLABS = 128;
/** Tags per group that the collecting loop records (wasm-collect.ts): 16 bytes each, and 4 per channel timestamp. */
export const COLLECT_CAPACITY = 4096;
/**
 * Scratch, a guard page, the slabs, a guard page (the absorb tail load may read 7 bytes past a range), two pages
 * for the collecting loop's records and timestamps, and a page whose first 8 bytes receive tagHash's result and
 * whose bytes from 64 on hold the collecting loop's state words.
 */
const MEMORY_PAGES = (SCRATCH_BYTES + PAGE + ARENA_SLABS * ARENA_SLAB_BYTES + PAGE + 2 * PAGE + PAGE) / PAGE;
const RESULT_AT = (MEMORY_PAGES - 1) * PAGE;
const COLLECT: CollectLayout = {
  records: (MEMORY_PAGES - 3) * PAGE,
  videoTs: (MEMORY_PAGES - 3) * PAGE + 16 * COLLECT_CAPACITY,
  audioTs: (MEMORY_PAGES - 3) * PAGE + 20 * COLLECT_CAPACITY,
  control: RESULT_AT + 64,
  result: RESULT_AT,
};
const C1 = 0xff51afd7ed558ccdn;
const SEED = 0x9e3779b97f4a7c15n;

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

/** The module's bytes; the shipped copies (wasm-hash-bytes.ts) must equal these (test/flv/tag-hash.test.ts). */
export function assemble(useSimd: boolean): Uint8Array {
  const types = section(1, vec([
    [0x60, 1, I64, 0], [0x60, 0, 0], [0x60, 1, I32, 0], [0x60, 0, 1, I32], [0x60, 2, I32, I32, 0], [0x60, 2, I32, I32, 1, I32],
    [0x60, 3, I32, I32, I32, 0], [0x60, 3, I32, I32, I32, 1, I32],
  ]));
  const funcs = section(3, vec([[0], [1], [4], [2], [3], [3], [5], [6], [7]]));
  // Fixed size (minimum = maximum): growing would detach the buffer that arena slabs and their views use.
  const memory = section(5, vec([[0x01, ...uleb(MEMORY_PAGES), ...uleb(MEMORY_PAGES)]]));
  const globals = section(6, vec([[I64, 1, ...c64(SEED), op.end]]));
  const exports = section(7, vec([
    [...name('mem'), 2, 0], [...name('h'), 3, 0], [...name('reset'), 0, 1], [...name('absorb'), 0, 2],
    [...name('mixInt'), 0, 3], [...name('hi'), 0, 4], [...name('lo'), 0, 5], [...name('tagHash'), 0, 7],
    [...name('collect'), 0, 8],
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
  // tagHash(ptr, len, mode): one tag body's hash into memory[RESULT_AT] (hi, lo), leaving the running state as it
  // was. Mode 0: the whole body; 1 (AVC) and 2 (HEVC) frames: the 5-byte prefix, then each NALU but filler, then
  // any bytes after the last whole NALU, exactly as the JS walk it replaces (remove-duplicated-chunk.ts). Positions
  // are 64-bit, since a NALU length may be anything up to 2^32 - 1.
  // Locals: 0 ptr, 1 len, 2 mode | 3 saved state, 4 pos, 5 len, 6 end, 7 size (i64) | 8 filler, 9 p, 10 header (i32).
  const be32 = (at: number): number[] => [
    op.localGet, 9, op.i32Load8U, 0, at, op.i32Const, 24, op.i32Shl, op.localGet, 9, op.i32Load8U, 0, at + 1, op.i32Const, 16, op.i32Shl, op.i32Or,
    op.localGet, 9, op.i32Load8U, 0, at + 2, op.i32Const, 8, op.i32Shl, op.i32Or, op.localGet, 9, op.i32Load8U, 0, at + 3, op.i32Or,
  ];
  const pos32 = [op.localGet, 4, op.i32WrapI64];
  const tagHash = func([[5, I64], [3, I32]], [
    op.globalGet, 0, op.localSet, 3, ...c64(SEED), op.globalSet, 0,
    op.localGet, 1, op.i64ExtendI32U, op.localSet, 5,
    op.localGet, 2, op.i32Eqz,
    op.if, op.void,
    op.localGet, 0, op.localGet, 1, op.call, 2,
    op.else, 
    op.localGet, 0, op.i32Const, 5, op.call, 2,
    op.i32Const, 12, op.i32Const, 38, op.localGet, 2, op.i32Const, 1, op.i32Eq, op.select, op.localSet, 8,
    ...c64(5n), op.localSet, 4,
    op.block, op.void, op.loop, op.void,
    op.localGet, 4, ...c64(5n), op.i64Add, op.localGet, 5, op.i64GtU, op.brIf, 1,
    op.localGet, 0, ...pos32, op.i32Add, op.localSet, 9,
    ...be32(0), op.i64ExtendI32U, op.localSet, 7,
    op.localGet, 9, op.i32Load8U, 0, 4, op.localTee, 10, op.i32Const, ...sleb(0x80n), op.i32And, op.brIf, 1,
    op.localGet, 10, op.i32Const, 0x1f, op.i32And,
    op.localGet, 10, op.i32Const, 1, op.i32ShrU, op.i32Const, 0x3f, op.i32And,
    op.localGet, 2, op.i32Const, 1, op.i32Eq, op.select,
    op.localGet, 8, op.i32Ne,
    op.if, op.void,
    op.localGet, 9,
    op.localGet, 4, ...c64(4n), op.i64Add, op.localGet, 7, op.i64Add, op.localTee, 6, op.localGet, 5, op.localGet, 6, op.localGet, 5, op.i64LtU, op.select,
    op.localGet, 4, op.i64Sub, op.i32WrapI64, op.call, 2,
    op.end,
    op.localGet, 4, ...c64(4n), op.i64Add, op.localGet, 7, op.i64Add, op.localSet, 4,
    op.br, 0, op.end, op.end,
    op.localGet, 4, op.localGet, 5, op.i64LtU,
    op.if, op.void,
    op.localGet, 0, ...pos32, op.i32Add, op.localGet, 5, op.localGet, 4, op.i64Sub, op.i32WrapI64, op.call, 2,
    op.end,
    op.end,
    op.i32Const, ...sleb(BigInt(RESULT_AT)), op.call, 4, op.i32Store, 2, 0,
    op.i32Const, ...sleb(BigInt(RESULT_AT)), op.call, 5, op.i32Store, 2, 4,
    op.localGet, 3, op.globalSet, 0,
  ]);
  const code = section(10, [...uleb(9), ...mix, ...reset, ...absorb, ...mixInt, ...hi, ...lo, ...stripes(useSimd), ...tagHash, ...collectCode(COLLECT, 7)]);
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
  tagHash(ptr: number, len: number, mode: number): void;
  collect(p: number, end: number, capacity: number): number;
}

/** How tagHash reads a body: whole, or as an AVC or HEVC frame whose filler NALUs are skipped. */
export const TagHashMode = { Whole: 0, Avc: 1, Hevc: 2 } as const;

/** The module's functions with its memory view; null when WebAssembly is unavailable (e.g. --jitless). */
export interface WasmHash {
  readonly x: Exports;
  /** Absorbs `u8`: in place when it lies in module memory (an arena slab), else copied to the scratch first. */
  absorbBytes(u8: Uint8Array): void;
  /**
   * One tag body's hash in a single call (see tagHash in assemble), into `result` as [hi, lo]; the running
   * state of absorbBytes and mixInt is left as it was. Bodies outside module memory are copied to the scratch.
   */
  tagHash(u8: Uint8Array, mode: number): void;
  readonly result: Int32Array;
  /** Slabs for tag arenas inside module memory, hashed in place; see tag-arena.ts. */
  readonly slabs: WasmSlabRegion;
  /** The collecting loop's records (4 words per tag), per-channel timestamps and state words (wasm-collect.ts). */
  readonly collected: { records: Int32Array; videoTs: Int32Array; audioTs: Int32Array; control: Int32Array };
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
      return new wa.Module(Buffer.from(HASH_MODULE_SIMD, 'base64'));
    } catch {
      // no SIMD: the scalar module below
    }
  }
  return new wa.Module(Buffer.from(HASH_MODULE_SCALAR, 'base64'));
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
      tagHash(u8: Uint8Array, mode: number): void {
        if (u8.buffer === buffer) {
          x.tagHash(u8.byteOffset, u8.length, mode);
          return;
        }
        if (u8.length > SCRATCH_BYTES) throw new RangeError(`Cannot hash ${u8.length} bytes at once (FLV tag bodies are under 16 MiB)`);
        scratch.set(u8, 0);
        x.tagHash(0, u8.length, mode);
      },
      result: new Int32Array(buffer, RESULT_AT, 2),
      collected: {
        records: new Int32Array(buffer, COLLECT.records, 4 * COLLECT_CAPACITY),
        videoTs: new Int32Array(buffer, COLLECT.videoTs, COLLECT_CAPACITY),
        audioTs: new Int32Array(buffer, COLLECT.audioTs, COLLECT_CAPACITY),
        control: new Int32Array(buffer, COLLECT.control, 10),
      },
    };
  } catch {
    cached = null;
  }
  return cached;
}
