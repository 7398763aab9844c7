// A fast 64-bit content fingerprint for duplicate-chunk detection and DataHash export.
//
// Why not crypto: the fingerprint runs over every byte of every tag body, the engine's hottest loop.
// Measured on this machine (SHA-NI), createHash('sha1').update() reaches 1.35 GB/s on 16 KB tags but only
// 0.37 GB/s on 200-byte audio tags (the per-call crossing into C++ dominates), md5 0.27-0.64 GB/s.
// Why not sampling a few bytes per tag: a near-static picture gives GOPs of equal tag sizes whose frames
// differ only in the middle; dropping such a GOP as "repeated" would lose real video. So every byte is
// hashed, with a non-cryptographic 64-bit hash: the duplicate rule only compares against the last 16 kept
// groups of the same session, with no adversary. Each absorption step is a bijection of the 64-bit
// state, so equal-length inputs differing in one word never collide; other collisions are ~2^-64.

import { MIX_K, MIX_M1 as M1, MIX_M2 as M2, MIX_SEED1, MIX_SEED2 } from './mix32.js';
import { type WasmHash, wasmHash } from './wasm-hash.js';
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** The little-endian 32-bit word at byte `i` of `u8`. */
const word = (u8: Uint8Array, i: number): number => u8[i]! | (u8[i + 1]! << 8) | (u8[i + 2]! << 16) | (u8[i + 3]! << 24);

/** The instance whose state is loaded in the WebAssembly module (one module per thread, shared). */
let active: Fingerprint64 | null = null;

/**
 * Uses the WebAssembly hasher when available (see wasm-hash.ts), else the JS word loop below. Values differ
 * between the two, which is fine: they are only compared within one process.
 */
export class Fingerprint64 {
  private h1 = 0;
  private h2 = 0;
  private words: Int32Array = new Int32Array(0);
  private wordsOf: ArrayBufferLike | null = null;
  private readonly wasm: WasmHash | null;
  /** This instance's wasm state while another instance is active. */
  private saved = 0n;

  constructor(useWasm = true) {
    this.wasm = useWasm ? wasmHash() : null;
  }

  reset(): this {
    if (this.wasm) {
      this.activate(this.wasm).x.reset();
      return this;
    }
    this.h1 = MIX_SEED1;
    this.h2 = MIX_SEED2;
    return this;
  }

  /** Absorbs one 32-bit integer. */
  addInt(v: number): this {
    if (this.wasm) {
      this.activate(this.wasm).x.mixInt(v);
      return this;
    }
    this.h1 = (Math.imul(this.h1 ^ v, M1) + (this.h2 >>> 15)) | 0;
    this.h2 = (Math.imul(this.h2 ^ MIX_K, M2) + (this.h1 >>> 13)) | 0;
    return this;
  }

  /**
   * Continues from a JavaScript state (two lanes) that other code mixed with the same step (src/flv/wasm-collect.ts
   * mixes a group's tag hashes as it collects them). JavaScript instances only.
   */
  resume(h1: number, h2: number): this {
    if (this.wasm) throw new Error('resume() needs a JavaScript fingerprint');
    this.h1 = h1 | 0;
    this.h2 = h2 | 0;
    return this;
  }

  /** Loads this instance's state into the shared module if another instance used it since. */
  private activate(w: WasmHash): WasmHash {
    if (active !== this) {
      if (active) active.saved = w.x.h.value as bigint;
      w.x.h.value = this.saved;
      active = this;
    }
    return w;
  }

  /** Absorbs a string (its length and UTF-16 code units). */
  addString(s: string): this {
    this.addInt(s.length);
    for (let i = 0; i < s.length; i++) this.addInt(s.charCodeAt(i));
    return this;
  }

  /**
   * Absorbs a byte range (its length and content) as little-endian 32-bit words. The result does not
   * depend on where the bytes sit in memory: unaligned ranges are read as aligned words and shifted.
   */
  addBytes(u8: Uint8Array): this {
    if (this.wasm) {
      this.activate(this.wasm).absorbBytes(u8);
      return this;
    }
    const n = u8.length;
    this.addInt(n);
    const m = n >> 2;
    const off = u8.byteOffset;
    const r = off & 3;
    let k = 0;
    let h1 = this.h1;
    let h2 = this.h2;
    if (LITTLE_ENDIAN && m >= 4) {
      const w = this.wordView(u8.buffer);
      const base = off >> 2;
      if (r === 0) {
        for (; k + 1 < m; k += 2) {
          h1 = (Math.imul(h1 ^ w[base + k]!, M1) + (h2 >>> 15)) | 0;
          h2 = (Math.imul(h2 ^ w[base + k + 1]!, M2) + (h1 >>> 13)) | 0;
        }
      } else {
        const s1 = 8 * r;
        const s2 = 32 - s1;
        // Word base+k+2 must exist for the pair (k, k+1); the last words are read byte by byte below.
        const safe = Math.min(m, w.length - base - 2);
        for (; k + 1 < safe; k += 2) {
          const b = base + k;
          h1 = (Math.imul(h1 ^ ((w[b]! >>> s1) | (w[b + 1]! << s2)), M1) + (h2 >>> 15)) | 0;
          h2 = (Math.imul(h2 ^ ((w[b + 1]! >>> s1) | (w[b + 2]! << s2)), M2) + (h1 >>> 13)) | 0;
        }
      }
    }
    for (; k + 1 < m; k += 2) {
      h1 = (Math.imul(h1 ^ word(u8, 4 * k), M1) + (h2 >>> 15)) | 0;
      h2 = (Math.imul(h2 ^ word(u8, 4 * k + 4), M2) + (h1 >>> 13)) | 0;
    }
    this.h1 = h1;
    this.h2 = h2;
    if (k < m) this.addInt(word(u8, 4 * k));
    if (n & 3) {
      let tail = 0;
      for (let j = n - 1; j >= m * 4; j--) tail = (tail << 8) | u8[j]!;
      this.addInt(tail);
    }
    return this;
  }

  /** High and low 32 bits of the finalised state (the state itself is left as is). */
  digest(): [number, number] {
    if (this.wasm) {
      const x = this.activate(this.wasm).x;
      return [x.hi() >>> 0, x.lo() >>> 0];
    }
    let h1 = this.h1;
    let h2 = this.h2;
    h1 ^= h2 >>> 16;
    h1 = Math.imul(h1, 0x85ebca6b);
    h2 ^= h1 >>> 13;
    h2 = Math.imul(h2, 0xc2b2ae35);
    h1 ^= h2 >>> 16;
    return [h1 >>> 0, h2 >>> 0];
  }

  /** 16 upper-case hex characters, the shape of brec's DataHash. */
  hex(): string {
    const [a, b] = this.digest();
    return (a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0')).toUpperCase();
  }

  /** One Int32Array over the whole backing store, reused while consecutive bodies share it. */
  private wordView(buf: ArrayBufferLike): Int32Array {
    if (this.wordsOf !== buf) {
      this.words = new Int32Array(buf, 0, buf.byteLength >> 2);
      this.wordsOf = buf;
    }
    return this.words;
  }
}

const shared = new Fingerprint64();

/** The DataHash-style hash of one body (16 upper-case hex characters). */
export function hashBytesHex(data: Uint8Array): string {
  return shared.reset().addBytes(data).hex();
}
