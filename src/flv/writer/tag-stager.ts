// A reusable buffer that collects whole tags (header, body, PreviousTagSize) so a group is one write call.
import { writeTagHeader } from '../tag-encoding.js';

/** Tags are copied in: one memcpy per body instead of a write call (or an allocation) per tag. */
export class TagStager {
  private buf: Buffer;
  private used = 0;

  /** Starts small and grows (doubling) up to `capacity` as groups need it. */
  constructor(private readonly capacity = 1 << 20) {
    this.buf = Buffer.allocUnsafeSlow(Math.min(capacity, 64 * 1024));
  }

  get length(): number {
    return this.used;
  }

  /** True when a tag with this body size fits in the remaining space (growing the buffer if allowed). */
  fits(bodySize: number): boolean {
    const need = this.used + 15 + bodySize;
    if (need <= this.buf.length) return true;
    if (need > this.capacity) return false;
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    const grown = Buffer.allocUnsafeSlow(Math.min(size, this.capacity));
    this.buf.copy(grown, 0, 0, this.used);
    this.buf = grown;
    return true;
  }

  /** Appends one tag; the timestamp is split into 24 low bits and the extended byte, StreamID 0. */
  add(type: number, timestamp: number, body: Uint8Array): void {
    const b = this.buf;
    let p = this.used;
    const size = body.length;
    p = writeTagHeader(b, p, type, size, timestamp);
    b.set(body, p);
    p += size;
    const total = size + 11;
    b[p] = total >>> 24;
    b[p + 1] = (total >>> 16) & 0xff;
    b[p + 2] = (total >>> 8) & 0xff;
    b[p + 3] = total & 0xff;
    this.used = p + 4;
  }

  /** The staged bytes (a view, valid until the next add/reset). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.used);
  }

  reset(): void {
    this.used = 0;
  }
}
