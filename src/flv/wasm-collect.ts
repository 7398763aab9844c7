// src/flv/fast's collecting loop as WebAssembly: plain units classified, hashed, recorded and rewritten in place.
import { MIX_K, MIX_M1, MIX_M2 } from './mix32.js';
import { I32, I64, c32, func, op, uleb } from './wasm-asm.js';

// Why WebAssembly: as JavaScript this loop was the one function V8 optimised on every `tool fix` (~11 ms of
// compile per run, and slower code until then); WebAssembly is compiled once, ahead of the first call.
// It does exactly what PlainGop.collect did (kept in plain-gop.ts for memory outside the module).

/** Where the loop keeps its state and results in module memory. */
export interface CollectLayout {
  /** Per tag, four i32: body size, input timestamp, hash hi, hash lo. */
  records: number;
  /** Input timestamps of the video tags, then of the audio tags, one i32 each. */
  videoTs: number;
  audioTs: number;
  /** The state words (CONTROL below), i32 each. */
  control: number;
  /** Where tagHash leaves [hi, lo]. */
  result: number;
}

/** Indices of the state words (i32) at `layout.control`. The caller sets offset and continues before each call. */
export const CONTROL = {
  count: 0, videoCount: 1, audioCount: 2, offset: 3, lastSize: 4, continues: 5, prevTs: 6, earliest: 7,
  /** The two lanes of the group fingerprint's JavaScript state (mix32.ts), each tag's hash mixed in as collected. */
  mixA: 8, mixB: 9,
} as const;

const DATA_GAP_LIMIT = 24999;
const AVC_FILLER = 12;

// Locals: 0 p, 1 end, 2 capacity (parameters) | 3 size, 4 type, 5 body, 6 kind, 7 h, 8 ts, 9 n, 10 lastSize,
// 11 continues, 12 prevTs, 13 earliest, 14 videoCount, 15 audioCount, 16 offset, 17 t, 18 rec | 19 pos, 20 bodyEnd
// (i64) | 21 mixA, 22 mixB.
const [P, END, CAP, SIZE, TYPE, BODY, KIND, H, TS, N, LAST, CONT, PREV, EARLY, VN, AN, OFF, T, REC, POS, BEND, MA, MB] =
  Array.from({ length: 23 }, (_, i) => i);

const get = (l: number): number[] => [op.localGet, l];
const set = (l: number): number[] => [op.localSet, l];
/** The byte at local `l` + `at`. */
const ld8 = (l: number, at: number): number[] => [op.localGet, l, op.i32Load8U, 0, ...uleb(at)];
const st8 = (l: number, at: number, value: number[]): number[] => [op.localGet, l, ...value, op.i32Store8, 0, ...uleb(at)];
const ld32 = (addr: number[]): number[] => [...addr, op.i32Load, 2, 0];
const st32 = (addr: number[], value: number[]): number[] => [...addr, ...value, op.i32Store, 2, 0];
const shr = (n: number): number[] => [...c32(n), op.i32ShrU];
const shl = (n: number): number[] => [...c32(n), op.i32Shl];
/** Big-endian 24 bits at local `l` + `at`. */
const be24 = (l: number, at: number): number[] => [
  ...ld8(l, at), ...shl(16), ...ld8(l, at + 1), ...shl(8), op.i32Or, ...ld8(l, at + 2), op.i32Or,
];
/** Big-endian 32 bits at local `l` (an address). */
const be32 = (l: number): number[] => [...be24(l, 0), ...shl(8), ...ld8(l, 3), op.i32Or];
/** `value` as four big-endian bytes at local `l`. */
/** One step of mix32.ts with `value`. */
const mix = (value: number[]): number[] => [
  ...get(MA), ...value, op.i32Xor, ...c32(MIX_M1), op.i32Mul, ...get(MB), ...c32(15), op.i32ShrU, op.i32Add, ...set(MA),
  ...get(MB), ...c32(MIX_K), op.i32Xor, ...c32(MIX_M2), op.i32Mul, ...get(MA), ...c32(13), op.i32ShrU, op.i32Add, ...set(MB),
];
const putBe32 = (l: number, value: number[]): number[] => [
  ...st8(l, 0, [...value, ...shr(24)]), ...st8(l, 1, [...value, ...shr(16)]), ...st8(l, 2, [...value, ...shr(8)]), ...st8(l, 3, value),
];

/** collect(p, end, capacity) → where it stopped; state in and out through the control words. */
export function collectCode(layout: CollectLayout, tagHash: number): number[] {
  const ctl = (k: number): number[] => c32(layout.control + 4 * k);
  const load = (l: number, k: number): number[] => [...ld32(ctl(k)), ...set(l)];
  const save = (l: number, k: number): number[] => st32(ctl(k), get(l));
  const breakIf = (depth: number, cond: number[]): number[] => [...cond, op.brIf, depth];
  // Depths below: inside `loop` 0 = next unit, 1 = done; inside the kind block one more, and so on.
  const kindBlock = [
    op.block, op.void,
    // audio: not an AAC sequence header
    ...get(TYPE), ...c32(8), op.i32Eq,
    op.if, op.void,
    ...get(SIZE), ...c32(2), op.i32GtU, ...ld8(BODY, 0), ...shr(4), ...c32(10), op.i32Eq, op.i32And,
    ...ld8(BODY, 1), op.i32Eqz, op.i32And, op.brIf, 3,
    ...c32(1), ...set(KIND), op.br, 1,
    op.end,
    ...breakIf(2, [...get(TYPE), ...c32(9), op.i32Ne]),
    ...breakIf(2, [...get(SIZE), ...c32(5), op.i32LeU]),
    ...ld8(BODY, 0), op.localTee, H, ...c32(0x8f), op.i32And, ...c32(7), op.i32Ne, op.brIf, 2,
    ...breakIf(2, [...ld8(BODY, 1), ...c32(1), op.i32Ne]),
    // the NALU walk (64-bit: a length may be anything up to 2^32 - 1)
    ...get(BODY), ...c32(5), op.i32Add, op.i64ExtendI32U, ...set(POS),
    ...get(BODY), ...get(SIZE), op.i32Add, op.i64ExtendI32U, ...set(BEND),
    op.block, op.void, op.loop, op.void,
    ...get(POS), op.i64Const, 5, op.i64Add, ...get(BEND), op.i64GtU, op.brIf, 1,
    ...get(POS), op.i32WrapI64, ...set(T),
    ...ld8(T, 4), op.localTee, H, ...c32(0x80), op.i32And, op.brIf, 4,
    ...breakIf(4, [...get(H), ...c32(0x1f), op.i32And, ...c32(AVC_FILLER), op.i32Eq]),
    ...get(POS), op.i64Const, 4, op.i64Add, ...be32(T), op.i64ExtendI32U, op.i64Add, ...set(POS),
    op.br, 0,
    op.end, op.end,
    ...breakIf(2, [...get(POS), ...get(BEND), op.i64Ne]),
    ...c32(3), ...c32(2), ...ld8(BODY, 0), ...c32(0x17), op.i32Eq, op.select, ...set(KIND),
    op.end,
  ];
  const code = [
    ...load(N, CONTROL.count), ...load(VN, CONTROL.videoCount), ...load(AN, CONTROL.audioCount), ...load(OFF, CONTROL.offset),
    ...load(LAST, CONTROL.lastSize), ...load(CONT, CONTROL.continues), ...load(PREV, CONTROL.prevTs), ...load(EARLY, CONTROL.earliest),
    ...load(MA, CONTROL.mixA), ...load(MB, CONTROL.mixB),
    op.block, op.void, op.loop, op.void,
    ...breakIf(1, [...get(END), ...get(P), op.i32Sub, ...c32(15), op.i32LtU]),
    ...be24(P, 5), ...set(SIZE),
    ...breakIf(1, [...get(END), ...get(P), op.i32Sub, ...get(SIZE), ...c32(15), op.i32Add, op.i32LtU]),
    ...ld8(P, 4), ...set(TYPE),
    ...get(P), ...c32(15), op.i32Add, ...set(BODY),
    ...kindBlock,
    // a keyframe only as the group's first unit
    ...breakIf(1, [...get(KIND), ...c32(3), op.i32Eq, ...get(N), op.i32Eqz, op.i32Ne]),
    ...be24(P, 8), ...ld8(P, 11), ...shl(24), op.i32Or, ...set(TS),
    ...breakIf(1, [...get(N), ...get(CAP), op.i32Eq]),
    ...breakIf(1, [...get(N), op.i32Eqz, op.i32Eqz, ...get(TS), ...get(PREV), op.i32Sub, ...c32(DATA_GAP_LIMIT), op.i32GeS, op.i32And]),
    // hash, record
    ...get(BODY), ...get(SIZE), ...c32(1), ...c32(0), ...get(KIND), ...c32(1), op.i32Ne, op.select, op.call, ...uleb(tagHash),
    ...get(N), ...c32(16), op.i32Mul, ...c32(layout.records), op.i32Add, ...set(REC),
    ...st32(get(REC), get(SIZE)),
    ...get(REC), ...get(TS), op.i32Store, 2, 4,
    ...get(REC), ...ld32(c32(layout.result)), op.i32Store, 2, 8,
    ...get(REC), ...ld32(c32(layout.result + 4)), op.i32Store, 2, 12,
    ...mix(ld32(c32(layout.result))), ...mix(ld32(c32(layout.result + 4))),
    ...get(KIND), ...c32(1), op.i32Eq,
    op.if, op.void,
    ...st32([...get(AN), ...c32(4), op.i32Mul, ...c32(layout.audioTs), op.i32Add], get(TS)),
    ...get(AN), ...c32(1), op.i32Add, ...set(AN),
    op.else,
    ...st32([...get(VN), ...c32(4), op.i32Mul, ...c32(layout.videoTs), op.i32Add], get(TS)),
    ...get(VN), ...c32(1), op.i32Add, ...set(VN),
    op.end,
    ...get(N), op.i32Eqz, ...get(TS), ...get(EARLY), op.i32LtS, op.i32Or,
    op.if, op.void, ...get(TS), ...set(EARLY), op.end,
    ...get(N), ...c32(1), op.i32Add, ...set(N),
    ...get(TS), ...set(PREV),
    // rewritten as the writer would write it: timestamp, StreamID 0, the previous tag's PreviousTagSize
    ...get(TS), ...get(OFF), op.i32Sub, ...set(T),
    ...st8(P, 8, [...get(T), ...shr(16)]), ...st8(P, 9, [...get(T), ...shr(8)]), ...st8(P, 10, get(T)), ...st8(P, 11, [...get(T), ...shr(24)]),
    ...st8(P, 12, c32(0)), ...st8(P, 13, c32(0)), ...st8(P, 14, c32(0)),
    ...get(CONT),
    op.if, op.void, ...putBe32(P, [...get(LAST), ...c32(11), op.i32Add]), op.end,
    ...c32(1), ...set(CONT),
    ...get(SIZE), ...set(LAST),
    ...get(P), ...c32(15), op.i32Add, ...get(SIZE), op.i32Add, ...set(P),
    op.br, 0,
    op.end, op.end,
    ...save(N, CONTROL.count), ...save(VN, CONTROL.videoCount), ...save(AN, CONTROL.audioCount),
    ...save(LAST, CONTROL.lastSize), ...save(CONT, CONTROL.continues), ...save(PREV, CONTROL.prevTs), ...save(EARLY, CONTROL.earliest),
    ...save(MA, CONTROL.mixA), ...save(MB, CONTROL.mixB),
    ...get(P),
  ];
  return func([[16, I32], [2, I64], [2, I32]], code);
}
