// AMF0 values: decoding a script tag body into typed values and encoding them back, for every marker brec knows.
import { FlvError } from './errors.js';

export type AmfValue =
  | { type: 'Number'; value: number }
  | { type: 'Boolean'; value: boolean }
  | { type: 'String'; value: string }
  | { type: 'Object'; value: Map<string, AmfValue> }
  | { type: 'Null' }
  | { type: 'Undefined' }
  | { type: 'Reference'; value: number }
  | { type: 'EcmaArray'; value: Map<string, AmfValue> }
  | { type: 'StrictArray'; value: AmfValue[] }
  /** `value` is milliseconds since the epoch (UTC); `offset` the stored zone offset in minutes. */
  | { type: 'Date'; value: number; offset: number }
  | { type: 'LongString'; value: string };

export const AmfMarker = {
  Number: 0, Boolean: 1, String: 2, Object: 3, MovieClip: 4, Null: 5, Undefined: 6, Reference: 7,
  EcmaArray: 8, ObjectEnd: 9, StrictArray: 10, Date: 11, LongString: 12,
} as const;

const decoder = new TextDecoder('utf-8');
const stripNul = (s: string): string => (s.includes('\0') ? s.replaceAll('\0', '') : s);

class AmfReader {
  pos = 0;
  constructor(private readonly buf: Uint8Array, private readonly view: DataView) {}

  need(n: number): void {
    if (this.pos + n > this.buf.length) throw new FlvError('AMF_ERROR', `AMF data ends early at byte ${this.pos}`);
  }
  u8(): number { this.need(1); return this.buf[this.pos++]!; }
  u16(): number { this.need(2); const v = this.view.getUint16(this.pos); this.pos += 2; return v; }
  u32(): number { this.need(4); const v = this.view.getUint32(this.pos); this.pos += 4; return v; }
  f64(): number { this.need(8); const v = this.view.getFloat64(this.pos); this.pos += 8; return v; }
  utf8(n: number): string {
    this.need(n);
    const s = decoder.decode(this.buf.subarray(this.pos, this.pos + n));
    this.pos += n;
    return stripNul(s);
  }

  /** (key, value) pairs until an empty key followed by the object-end marker. */
  pairs(depth: number): Map<string, AmfValue> {
    const map = new Map<string, AmfValue>();
    for (;;) {
      const key = this.utf8(this.u16());
      if (key.length === 0 && this.buf[this.pos] === AmfMarker.ObjectEnd) {
        this.pos++;
        return map;
      }
      if (key.length === 0) {
        // An empty key that is not the end marker still has to be followed by a value; brec rejects it.
        throw new FlvError('AMF_ERROR', `AMF object key is empty but no end marker at byte ${this.pos}`);
      }
      map.set(key, this.value(depth + 1));
    }
  }

  value(depth = 0): AmfValue {
    if (depth > 64) throw new FlvError('AMF_ERROR', 'AMF nesting too deep');
    const marker = this.u8();
    switch (marker) {
      case AmfMarker.Number: return { type: 'Number', value: this.f64() };
      case AmfMarker.Boolean: return { type: 'Boolean', value: this.u8() !== 0 };
      case AmfMarker.String: return { type: 'String', value: this.utf8(this.u16()) };
      case AmfMarker.Object: return { type: 'Object', value: this.pairs(depth) };
      case AmfMarker.Null: return { type: 'Null' };
      case AmfMarker.Undefined: return { type: 'Undefined' };
      case AmfMarker.Reference: return { type: 'Reference', value: this.u16() };
      case AmfMarker.EcmaArray: this.u32(); return { type: 'EcmaArray', value: this.pairs(depth) };
      case AmfMarker.StrictArray: {
        const count = this.u32();
        if (count > this.buf.length - this.pos) throw new FlvError('AMF_ERROR', `AMF strict array count ${count} too large`);
        const items: AmfValue[] = [];
        for (let i = 0; i < count; i++) items.push(this.value(depth + 1));
        return { type: 'StrictArray', value: items };
      }
      case AmfMarker.Date: {
        const value = this.f64();
        this.need(2);
        const offset = this.view.getInt16(this.pos);
        this.pos += 2;
        return { type: 'Date', value, offset };
      }
      case AmfMarker.LongString: {
        const n = this.u32();
        if (n > 0x7fffffff) throw new FlvError('AMF_ERROR', 'AMF long string too long');
        return { type: 'LongString', value: this.utf8(n) };
      }
      case AmfMarker.MovieClip: throw new FlvError('AMF_ERROR', 'AMF MovieClip is not supported');
      case AmfMarker.ObjectEnd: throw new FlvError('AMF_ERROR', 'AMF object end marker where a value was expected');
      default: throw new FlvError('AMF_ERROR', `Unknown AMF marker ${marker} at byte ${this.pos - 1}`);
    }
  }
}

/** Decodes every AMF0 value in a script tag body. Throws FlvError('AMF_ERROR') on malformed data. */
export function decodeAmf(body: Uint8Array): AmfValue[] {
  const reader = new AmfReader(body, new DataView(body.buffer, body.byteOffset, body.byteLength));
  const values: AmfValue[] = [];
  while (reader.pos < body.length) values.push(reader.value());
  return values;
}

class AmfWriter {
  private chunks: Buffer[] = [];
  size = 0;
  push(b: Buffer): void { this.chunks.push(b); this.size += b.length; }
  u8(v: number): void { const b = Buffer.allocUnsafe(1); b[0] = v; this.push(b); }
  u16(v: number): void { const b = Buffer.allocUnsafe(2); b.writeUInt16BE(v); this.push(b); }
  u32(v: number): void { const b = Buffer.allocUnsafe(4); b.writeUInt32BE(v); this.push(b); }
  f64(v: number): void { const b = Buffer.allocUnsafe(8); b.writeDoubleBE(v); this.push(b); }
  key(s: string): void {
    const b = Buffer.from(s, 'utf8');
    if (b.length > 0xffff) throw new FlvError('AMF_ERROR', 'AMF key longer than 65535 bytes');
    this.u16(b.length);
    this.push(b);
  }
  pairs(map: Map<string, AmfValue>): void {
    for (const [k, v] of map) { this.key(k); this.value(v); }
    this.push(Buffer.from([0, 0, AmfMarker.ObjectEnd]));
  }
  value(v: AmfValue): void {
    switch (v.type) {
      case 'Number': this.u8(AmfMarker.Number); this.f64(v.value); break;
      case 'Boolean': this.u8(AmfMarker.Boolean); this.u8(v.value ? 1 : 0); break;
      case 'String': this.u8(AmfMarker.String); this.key(v.value); break;
      case 'Object': this.u8(AmfMarker.Object); this.pairs(v.value); break;
      case 'Null': this.u8(AmfMarker.Null); break;
      case 'Undefined': this.u8(AmfMarker.Undefined); break;
      case 'Reference': this.u8(AmfMarker.Reference); this.u16(v.value); break;
      case 'EcmaArray': this.u8(AmfMarker.EcmaArray); this.u32(v.value.size); this.pairs(v.value); break;
      case 'StrictArray': this.u8(AmfMarker.StrictArray); this.u32(v.value.length); for (const x of v.value) this.value(x); break;
      case 'Date': {
        this.u8(AmfMarker.Date); this.f64(v.value);
        const b = Buffer.allocUnsafe(2); b.writeInt16BE(v.offset); this.push(b);
        break;
      }
      case 'LongString': {
        const b = Buffer.from(v.value, 'utf8');
        this.u8(AmfMarker.LongString); this.u32(b.length); this.push(b);
        break;
      }
    }
  }
  finish(): Buffer { return Buffer.concat(this.chunks, this.size); }
}

/** Encodes AMF0 values into a script tag body. */
export function encodeAmf(values: readonly AmfValue[]): Buffer {
  const w = new AmfWriter();
  for (const v of values) w.value(v);
  return w.finish();
}
