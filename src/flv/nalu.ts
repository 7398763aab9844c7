// AVC NALU list of a video tag body (length-prefixed AVCC), parsed the tolerant way brec does.
import type { Nalu } from './tag.js';

/**
 * Parses the NALUs after the 5-byte AVC video tag prefix.
 * Returns null when a NAL header has the forbidden bit set; a length that overruns the body just ends the list.
 */
export function parseNalus(body: Uint8Array): Nalu[] | null {
  const nalus: Nalu[] = [];
  const len = body.length;
  let pos = 5;
  while (pos + 5 <= len) {
    const size = ((body[pos]! << 24) | (body[pos + 1]! << 16) | (body[pos + 2]! << 8) | body[pos + 3]!) >>> 0;
    const header = body[pos + 4]!;
    if (header & 0x80) return null;
    nalus.push({ start: pos + 4, fullSize: size, type: header & 0x1f });
    pos += 4 + size;
  }
  return nalus;
}
