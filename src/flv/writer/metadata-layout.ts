// A fixed-size onMetaData body whose numbers and keyframe index can be patched in place while recording.
import { encodeAmf, type AmfValue } from '../amf.js';
import type { AmfMap } from '../metadata.js';

/** brec reserves room for this many keyframe entries. */
export const DEFAULT_KEYFRAME_CAPACITY = 6300;

/** Marker value: put it in the map under `keyframes` to reserve the index there. */
export const KEYFRAMES_PLACEHOLDER: AmfValue = Object.freeze({ type: 'Object', value: new Map() }) as AmfValue;

const enc = (s: string): Buffer => Buffer.from(s, 'utf8');
const K_TIMES = enc('times');
const K_POS = enc('filepositions');
const K_SPACER = enc('spacer');
/** One spacer entry: AMF Number marker, then NaN as a big-endian double (what DataView.setFloat64 writes). */
const NAN_ENTRY = Buffer.from([0, 0x7f, 0xf8, 0, 0, 0, 0, 0, 0]);

/** A dirty byte range of the body: [start, end). */
export interface ByteRange { start: number; end: number }

/**
 * Body layout: `String "onMetaData"`, then an ECMA array whose Number values can be rewritten in place
 * and whose `keyframes` Object keeps a constant length: `times` and `filepositions` grow while `spacer`
 * (NaN numbers) shrinks by the same amount, exactly brec's trick. Readers such as ffmpeg stop at the
 * unknown `spacer` key after both arrays, so the index stays valid at every size.
 */
export class MetadataLayout {
  readonly body: Buffer;
  private readonly numbers = new Map<string, number>();
  private readonly kfOffset: number;
  private readonly times: number[] = [];
  /** `filepositions` entries, pre-encoded (marker + double): the array moves on every flush, so it is copied. */
  private readonly positionBytes: Buffer;
  private flushedCount = 0;
  private readonly view: DataView;

  /** Encodes `map` (keys in order); Number values become patchable; `keyframes` may be the placeholder. */
  constructor(map: AmfMap, readonly capacity = DEFAULT_KEYFRAME_CAPACITY) {
    const parts: Buffer[] = [encodeAmf([{ type: 'String', value: 'onMetaData' }])];
    const head = Buffer.allocUnsafe(5);
    head[0] = 8;
    head.writeUInt32BE(map.size, 1);
    parts.push(head);
    let offset = parts[0]!.length + 5;
    let kf = -1;
    for (const [key, value] of map) {
      const k = enc(key);
      const keyBytes = Buffer.allocUnsafe(2 + k.length);
      keyBytes.writeUInt16BE(k.length);
      k.copy(keyBytes, 2);
      parts.push(keyBytes);
      offset += keyBytes.length;
      let v: Buffer;
      if (value === KEYFRAMES_PLACEHOLDER) {
        kf = offset;
        v = Buffer.alloc(this.indexLength());
      } else {
        if (value.type === 'Number') this.numbers.set(key, offset + 1);
        v = encodeAmf([value]);
      }
      parts.push(v);
      offset += v.length;
    }
    parts.push(Buffer.from([0, 0, 9]));
    this.body = Buffer.concat(parts);
    this.view = new DataView(this.body.buffer, this.body.byteOffset, this.body.length);
    this.positionBytes = Buffer.alloc(kf >= 0 ? capacity * 9 : 0);
    this.kfOffset = kf;
    if (kf >= 0) this.renderIndex(true);
  }

  /** True when `key` is a Number that can be patched. */
  hasNumber(key: string): boolean {
    return this.numbers.has(key);
  }

  /** Sets a Number in place; returns its 8-byte range, or null when the key is not a Number. */
  setNumber(key: string, value: number): ByteRange | null {
    const at = this.numbers.get(key);
    if (at === undefined) return null;
    this.view.setFloat64(at, value);
    return { start: at, end: at + 8 };
  }

  get keyframeCount(): number {
    return this.times.length;
  }

  /** Time (ms) of the last indexed keyframe, or null. */
  get lastKeyframeMs(): number | null {
    return this.times.length ? this.times[this.times.length - 1]! : null;
  }

  /** Records a keyframe (time in ms, byte offset of its tag). False when there is no index or it is full. */
  addKeyframe(timeMs: number, filePosition: number): boolean {
    if (this.kfOffset < 0 || this.times.length >= this.capacity) return false;
    const at = this.times.length * 9;
    this.positionBytes[at] = 0;
    this.positionBytes.writeDoubleBE(filePosition, at + 1);
    this.times.push(timeMs);
    return true;
  }

  /** Keyframes added since the last `renderIndex()`. */
  get pendingKeyframes(): number {
    return this.times.length - this.flushedCount;
  }

  /** Writes the index into the body; returns the range that changed (null when nothing is pending). */
  renderIndex(force = false): ByteRange | null {
    if (this.kfOffset < 0 || (!force && this.pendingKeyframes === 0)) return null;
    const b = this.body;
    const n = this.times.length;
    const spacer = 2 * (this.capacity - n);
    let p = this.kfOffset;
    b[p++] = 3;
    p = this.key(p, K_TIMES);
    const start = p;
    // times: only entries added since the last render are new; earlier ones stay where they are.
    b[p] = 10;
    b.writeUInt32BE(n, p + 1);
    p += 5;
    for (let i = this.flushedCount; i < n; i++) {
      b[p + i * 9] = 0;
      this.view.setFloat64(p + i * 9 + 1, this.times[i]! / 1000);
    }
    p += n * 9;
    p = this.key(p, K_POS);
    b[p] = 10;
    b.writeUInt32BE(n, p + 1);
    p += 5;
    this.positionBytes.copy(b, p, 0, n * 9);
    p += n * 9;
    p = this.key(p, K_SPACER);
    b[p++] = 10;
    b.writeUInt32BE(spacer, p);
    p += 4;
    const end = p;
    if (force) {
      // fill() repeats the entry in native code: a JS loop here ran 12 600 times per opened file and made V8
      // compile this function twice (on-stack replacement, then again), about 7 ms per process.
      b.fill(NAN_ENTRY, p, p + spacer * 9);
      p += spacer * 9;
      b[p++] = 0;
      b[p++] = 0;
      b[p++] = 9;
    }
    this.flushedCount = n;
    return { start, end };
  }

  private indexLength(): number {
    return 1 + (2 + K_TIMES.length + 5) + (2 + K_POS.length + 5) + (2 + K_SPACER.length + 5) + 3 + 2 * this.capacity * 9;
  }

  private key(p: number, k: Buffer): number {
    this.body.writeUInt16BE(k.length, p);
    k.copy(this.body, p + 2);
    return p + 2 + k.length;
  }
}
