// Bytes appended into one growing buffer: strings are given room by their worst case, never measured first.
/*
 * Why not Buffer.byteLength then write: measuring a room's JSON (a two-byte string built from pieces) costs as much
 * as encoding it, and 5000 of them were a third of the first 5000-room list answer. A UTF-16 code unit never takes
 * more than 3 bytes of UTF-8, so that much room is enough, and the result is copied once to its exact size.
 */
export class ByteWriter {
  private buf: Buffer;
  length = 0;

  constructor(sizeHint: number) {
    this.buf = Buffer.allocUnsafeSlow(Math.max(1024, sizeHint));
  }

  private reserve(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const grown = Buffer.allocUnsafeSlow(size);
    this.buf.copy(grown, 0, 0, this.length);
    this.buf = grown;
  }

  byte(b: number): void {
    this.reserve(1);
    this.buf[this.length++] = b;
  }

  string(s: string): void {
    this.reserve(s.length * 3);
    this.length += this.buf.write(s, this.length);
  }

  /** All of `src` (TypedArray.set: no per-call work beyond the copy, which matters for 5000 small copies). */
  bytes(src: Uint8Array): void {
    this.reserve(src.length);
    this.buf.set(src, this.length);
    this.length += src.length;
  }

  copy(src: Buffer, start: number, end: number): void {
    this.reserve(end - start);
    this.length += src.copy(this.buf, this.length, start, end);
  }

  /** What was written, in a buffer of its own of exactly that size. */
  done(): Buffer {
    const out = Buffer.allocUnsafeSlow(this.length);
    this.buf.copy(out, 0, 0, this.length);
    return out;
  }
}
