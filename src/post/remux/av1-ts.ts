// AV1 access units from MPEG-TS → av01 samples: start-code delimited, escaped OBUs (AOM's AV1-in-MPEG-2-TS) back to
// the low-overhead format MP4 carries (every OBU with obu_size, no temporal delimiters), and the av1C from the sequence header.
import { buildAv1C, OBU, splitObus } from '../../media/av1-config.js';
import type { AccessUnit } from './annexb.js';

/** The ts_open_bitstream_units of a PES payload (3-byte start codes; bytes before the first one are not an OBU). */
function tsObus(b: Uint8Array): Uint8Array[] {
  const starts: number[] = [];
  for (let i = 0; i + 2 < b.length; i++) {
    if (b[i] === 0 && b[i + 1] === 0 && b[i + 2] === 1) {
      starts.push(i + 3);
      i += 2;
    }
  }
  return starts.map((s, k) => b.subarray(s, k + 1 < starts.length ? starts[k + 1]! - 3 : b.length));
}

/** Drops emulation prevention bytes (a 0x03 after two zero bytes). */
function unescapeObu(b: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(b.length);
  let n = 0;
  let zeros = 0;
  for (const byte of b) {
    if (zeros >= 2 && byte === 0x03) {
      zeros = 0;
      continue;
    }
    out[n++] = byte;
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return out.subarray(0, n);
}

/** An OBU without obu_size (allowed in TS, where the start code delimits it) gets one. */
function withSize(obu: Buffer): Buffer {
  if (obu.length === 0 || obu[0]! & 0x02) return obu;
  const head = obu[0]! & 0x04 ? 2 : 1;
  const size: number[] = [];
  let n = obu.length - head;
  do {
    size.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
    n = Math.floor(n / 128);
  } while (n > 0);
  return Buffer.concat([Buffer.from([obu[0]! | 0x02]), obu.subarray(1, head), Buffer.from(size), obu.subarray(head)]);
}

/** Collects the sequence header for the av1C; converts access units to samples (key: the first frame is a shown key frame). */
export class Av1TsConverter {
  config: Uint8Array | null = null;

  convert(au: Uint8Array): AccessUnit | null {
    const parts: Buffer[] = [];
    let key: boolean | null = null;
    for (const raw of tsObus(au)) {
      if (raw.length === 0) continue;
      const bytes = withSize(unescapeObu(raw));
      const obu = splitObus(bytes)[0];
      if (!obu || obu.type === OBU.TemporalDelimiter) continue; // MP4 samples carry none (AV1-ISOBMFF)
      if (obu.type === OBU.SequenceHeader && !this.config) this.config = buildAv1C(obu);
      if (key === null && (obu.type === OBU.Frame || obu.type === OBU.FrameHeader) && obu.payload.length > 0) {
        // uncompressed_header: show_existing_frame (1), frame_type (2, 0 = KEY_FRAME), show_frame (1)
        const b = obu.payload[0]!;
        key = !(b & 0x80) && ((b >> 5) & 0x03) === 0 && (b & 0x10) !== 0;
      }
      parts.push(Buffer.from(obu.bytes));
    }
    return parts.length ? { sample: Buffer.concat(parts), key: key ?? false } : null;
  }
}
