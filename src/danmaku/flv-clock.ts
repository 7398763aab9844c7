// Media progress of an FLV byte stream without parsing it: walks the tag headers (RawData captures write bytes as received).

const FILE_HEADER = 13; // 9-byte FLV header + PreviousTagSize0
const TAG_HEAD = 13; // 11-byte tag header + the first 2 body bytes (to tell sequence headers from media)

/**
 * Feed every chunk in order; `position` is the newest audio/video data timestamp minus the first one (ms), or
 * null before any media. Sequence headers and script tags are skipped: they carry no media time.
 */
export class FlvClock {
  private skip = FILE_HEADER;
  private head = Buffer.alloc(TAG_HEAD);
  private have = 0;
  private first: number | null = null;
  private last = 0;

  get position(): number | null {
    return this.first === null ? null : this.last - this.first;
  }

  push(chunk: Uint8Array): void {
    let pos = 0;
    while (pos < chunk.length) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - pos);
        this.skip -= n;
        pos += n;
        continue;
      }
      const n = Math.min(TAG_HEAD - this.have, chunk.length - pos);
      this.head.set(chunk.subarray(pos, pos + n), this.have);
      this.have += n;
      pos += n;
      if (this.have < TAG_HEAD) return;
      this.tag();
    }
  }

  private tag(): void {
    const h = this.head;
    const type = h[0]! & 0x1f;
    const size = h.readUIntBE(1, 3);
    const ts = (h.readUIntBE(4, 3) | (h[7]! << 24)) >>> 0;
    const header = size >= 2 && ((type === 9 && (h[11]! & 0x0f) === 7 && h[12] === 0) || (type === 8 && h[12] === 0 && h[11]! >> 4 === 10));
    if ((type === 8 || type === 9) && size >= 2 && !header) {
      this.first ??= ts;
      this.last = ts;
    }
    this.have = 0;
    // The rest of the body (2 bytes already read) and the PreviousTagSize field.
    this.skip = Math.max(0, size - 2) + 4 - (size < 2 ? 2 - size : 0);
  }
}
