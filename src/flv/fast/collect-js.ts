// The collecting loop of wasm-collect.ts in JavaScript, for units outside module memory (a tag larger than a slab).
import { DATA_GAP_LIMIT } from '../grouping.js';
import { MIX_K, MIX_M1, MIX_M2 } from '../mix32.js';
import { writeTagTimestamp } from '../tag-encoding.js';
import { CONTROL } from '../wasm-collect.js';
import { TagHashMode, type WasmHash } from '../wasm-hash.js';
import { Plain, plainKind } from './plain-tag.js';

/**
 * Does what the module's `collect(p, end, capacity)` does, on any memory, with the same records and state words
 * (the two are checked against each other in test/flv/fast-path.test.ts). Returns where it stopped.
 */
export function collectInJs(wasm: WasmHash, mem: Uint8Array, p: number, end: number, capacity: number): number {
  const { records, videoTs, audioTs, control } = wasm.collected;
  const result = wasm.result;
  let n = control[CONTROL.count]!;
  let continues = control[CONTROL.continues]!;
  let lastSize = control[CONTROL.lastSize]!;
  let earliest = control[CONTROL.earliest]!;
  let prevTs = control[CONTROL.prevTs]!;
  const offset = control[CONTROL.offset]!;
  let h1 = control[CONTROL.mixA]!;
  let h2 = control[CONTROL.mixB]!;
  while (end - p >= 15) {
    const size = (mem[p + 5]! << 16) | (mem[p + 6]! << 8) | mem[p + 7]!;
    if (end - p < 15 + size) break;
    const kind = plainKind(mem, p, size);
    if (kind === Plain.No || (kind === Plain.Keyframe) !== (n === 0)) break;
    const ts = (mem[p + 8]! << 16) | (mem[p + 9]! << 8) | mem[p + 10]! | (mem[p + 11]! << 24);
    if (n === capacity || (n > 0 && ((ts - prevTs) | 0) >= DATA_GAP_LIMIT)) break;
    wasm.tagHash(mem.subarray(p + 15, p + 15 + size), kind === Plain.Audio ? TagHashMode.Whole : TagHashMode.Avc);
    records[4 * n] = size;
    records[4 * n + 1] = ts;
    records[4 * n + 2] = result[0]!;
    records[4 * n + 3] = result[1]!;
    for (let k = 0; k < 2; k++) {
      h1 = (Math.imul(h1 ^ result[k]!, MIX_M1) + (h2 >>> 15)) | 0;
      h2 = (Math.imul(h2 ^ MIX_K, MIX_M2) + (h1 >>> 13)) | 0;
    }
    if (kind === Plain.Audio) audioTs[control[CONTROL.audioCount]++] = ts;
    else videoTs[control[CONTROL.videoCount]++] = ts;
    if (n === 0 || ts < earliest) earliest = ts;
    n++;
    prevTs = ts;
    // As the writer would write it (type and size stay as read): the timestamp, a zero StreamID, and the previous
    // tag's PreviousTagSize, which opens this unit. The parser reads none of that but the timestamp.
    writeTagTimestamp(mem, p + 8, (ts - offset) | 0);
    mem[p + 12] = 0;
    mem[p + 13] = 0;
    mem[p + 14] = 0;
    if (continues) {
      const prev = lastSize + 11;
      mem[p] = prev >>> 24;
      mem[p + 1] = (prev >>> 16) & 0xff;
      mem[p + 2] = (prev >>> 8) & 0xff;
      mem[p + 3] = prev & 0xff;
    }
    continues = 1;
    lastSize = size;
    p += 15 + size;
  }
  control[CONTROL.count] = n;
  control[CONTROL.continues] = continues;
  control[CONTROL.lastSize] = lastSize;
  control[CONTROL.earliest] = earliest;
  control[CONTROL.prevTs] = prevTs;
  control[CONTROL.mixA] = h1;
  control[CONTROL.mixB] = h2;
  return p;
}
