// Collects whole tags (header, body, PreviousTagSize) for one gathered write: small bodies copied, large ones by reference.
import { writeTagHeader } from '../tag-encoding.js';

/**
 * Bodies from this size on are listed by reference instead of copied: the kernel gathers them (writev) from
 * where they lie, so a 1080p stream's bytes are copied once (into the page cache), not twice. Smaller ones
 * (audio, small P-frames) are cheaper to copy than to list.
 */
const REFERENCE_FROM = 2048;
/** Parts per write, under the kernel's IOV_MAX (1024) with room for the last inline run. */
const MAX_PARTS = 1000;
/** Room for a rewritten body head (`add`'s `head`), copied inline ahead of a referenced body. */
const MAX_HEAD = 16;

export class TagStager {
  // Plain Uint8Array, not Buffer: a Buffer's subarray constructs a FastBuffer in JS (measured 90-135 ns vs 50-65).
  private buf: Uint8Array;
  private used = 0;
  /** Start of the inline bytes not yet listed in `parts`. */
  private mark = 0;
  private readonly parts: Uint8Array[] = [];
  private partsBytes = 0;
  /** Bodies listed by reference since the last reset: they must stay unchanged until the staged bytes are written. */
  referenced = 0;

  /** Starts small and grows (doubling) as groups need it, up to `capacity` bytes staged. */
  constructor(private readonly capacity = 1 << 20) {
    this.buf = new Uint8Array(Math.min(capacity, 64 * 1024));
  }

  get length(): number {
    return this.partsBytes + this.used - this.mark;
  }

  /**
   * True when a tag with this body size fits (growing the inline buffer if needed). One write stays within
   * `capacity` bytes, referenced bodies included: measured on this machine's ext4, 3 MiB writes cost the
   * kernel 2-4× as much per byte as 1 MiB ones (and gathering a whole 3 MB GOP made `tool fix` slower).
   */
  fits(bodySize: number): boolean {
    if (this.length + 15 + bodySize > this.capacity) return false;
    const byReference = bodySize >= REFERENCE_FROM;
    if (byReference && this.parts.length + 2 > MAX_PARTS) return false;
    const need = this.used + 15 + (byReference ? MAX_HEAD : bodySize);
    if (need <= this.buf.length) return true;
    if (need > this.capacity) return false;
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    // Parts already listed keep viewing the old buffer, which stays alive through them.
    const grown = new Uint8Array(Math.min(size, this.capacity));
    grown.set(this.buf.subarray(this.mark, this.used), this.mark);
    this.buf = grown;
    return true;
  }

  /**
   * Appends one tag whose body is `head` (copied; a few bytes) then `body`; the timestamp is split into 24 low
   * bits and the extended byte, StreamID 0. `fits` must have been asked for the whole body size (head included).
   */
  add(type: number, timestamp: number, body: Uint8Array, head?: Uint8Array): void {
    const b = this.buf;
    let p = this.used;
    const size = body.length + (head?.length ?? 0);
    p = writeTagHeader(b, p, type, size, timestamp);
    if (head) {
      b.set(head, p);
      p += head.length;
    }
    if (size >= REFERENCE_FROM) {
      this.parts.push(b.subarray(this.mark, p), body);
      this.partsBytes += p - this.mark + body.length;
      this.mark = p;
      this.referenced++;
    } else {
      b.set(body, p);
      p += body.length;
    }
    const total = size + 11;
    b[p] = total >>> 24;
    b[p + 1] = (total >>> 16) & 0xff;
    b[p + 2] = (total >>> 8) & 0xff;
    b[p + 3] = total & 0xff;
    this.used = p + 4;
  }

  /** The staged bytes in order (views, valid until the next add/reset and while referenced bodies are). */
  bytes(): Uint8Array[] {
    const out = this.parts.slice();
    if (this.used > this.mark) out.push(this.buf.subarray(this.mark, this.used));
    return out;
  }

  reset(): void {
    this.used = 0;
    this.mark = 0;
    this.parts.length = 0;
    this.partsBytes = 0;
    this.referenced = 0;
  }
}
