// Whole FLV tags out of the preview's byte chunks (a chunk may end inside a tag), with what the preview needs of each.

export interface PreviewTag {
  /** Header, body and PreviousTagSize. */
  bytes: Uint8Array;
  type: number;
  ts: number;
  /** A video keyframe that is a frame (not a sequence header): a viewer may start here. */
  key: boolean;
}

/** Whether a video tag body (legacy or Enhanced FLV) is a coded keyframe. */
function isKeyFrame(body: Uint8Array): boolean {
  const b0 = body[0] ?? 0;
  if (b0 & 0x80) return ((b0 >> 4) & 7) === 1 && (b0 & 0x0f) !== 0 && (b0 & 0x0f) !== 2;
  return b0 >> 4 === 1 && body[1] === 1;
}

/** Splits appended file bytes into tags; `broken` once bytes stop looking like tags (the stream then ends). */
export class FlvTagSplitter {
  private rest: Uint8Array = new Uint8Array(0);
  broken = false;

  push(chunk: Uint8Array): PreviewTag[] {
    if (this.broken) return [];
    let buf = chunk;
    if (this.rest.length) {
      buf = new Uint8Array(this.rest.length + chunk.length);
      buf.set(this.rest);
      buf.set(chunk, this.rest.length);
    }
    const out: PreviewTag[] = [];
    let p = 0;
    while (p + 11 <= buf.length) {
      const type = buf[p]! & 0x1f;
      const size = (buf[p + 1]! << 16) | (buf[p + 2]! << 8) | buf[p + 3]!;
      if (type !== 8 && type !== 9 && type !== 18) {
        this.broken = true;
        return out;
      }
      const end = p + 11 + size + 4;
      if (end > buf.length) break;
      const ts = ((buf[p + 7]! << 24) | (buf[p + 4]! << 16) | (buf[p + 5]! << 8) | buf[p + 6]!) >>> 0;
      out.push({ bytes: buf.subarray(p, end), type, ts, key: type === 9 && size >= 2 && isKeyFrame(buf.subarray(p + 11, p + 11 + size)) });
      p = end;
    }
    this.rest = buf.slice(p);
    return out;
  }

  reset(): void {
    this.rest = new Uint8Array(0);
    this.broken = false;
  }
}
