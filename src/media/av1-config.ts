// AV1 in containers: OBU splitting, the sequence header's fields, and the AV1CodecConfigurationRecord (av1C) built from it.

/** OBU types (AV1 spec §6.2.2) that matter here. */
export const OBU = { SequenceHeader: 1, TemporalDelimiter: 2, Frame: 6, FrameHeader: 3 } as const;

export interface Obu {
  type: number;
  /** The whole OBU (header, size field, payload). */
  bytes: Uint8Array;
  payload: Uint8Array;
}

/** The OBUs of a low-overhead bitstream (every OBU with obu_has_size_field, as MP4 and Enhanced FLV carry them); stops at a torn one. */
export function splitObus(data: Uint8Array): Obu[] {
  const out: Obu[] = [];
  let p = 0;
  while (p < data.length) {
    const start = p;
    const header = data[p++]!;
    const type = (header >> 3) & 0x0f;
    if (header & 0x04) p++; // extension byte
    let size = data.length - p;
    if (header & 0x02) {
      size = 0;
      for (let i = 0; i < 8; i++) {
        const b = data[p++];
        if (b === undefined) return out;
        size += (b & 0x7f) * 2 ** (7 * i);
        if (!(b & 0x80)) break;
      }
    }
    if (p + size > data.length) return out;
    out.push({ type, bytes: data.subarray(start, p + size), payload: data.subarray(p, p + size) });
    p += size;
  }
  return out;
}

class Bits {
  private pos = 0;
  constructor(private readonly b: Uint8Array) {}
  f(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++, this.pos++) {
      const byte = this.b[this.pos >> 3];
      if (byte === undefined) throw new Error('AV1 sequence header is truncated');
      v = v * 2 + ((byte >> (7 - (this.pos & 7))) & 1);
    }
    return v;
  }
  uvlc(): number {
    let zeros = 0;
    while (this.f(1) === 0) zeros++;
    return zeros >= 32 ? 2 ** 32 - 1 : this.f(zeros) + 2 ** zeros - 1;
  }
}

export interface Av1SequenceInfo {
  profile: number;
  level: number;
  tier: number;
  bitDepth: 8 | 10 | 12;
  monochrome: boolean;
  subsamplingX: number;
  subsamplingY: number;
  chromaSamplePosition: number;
  maxWidth: number;
  maxHeight: number;
}

/** The fields of a sequence header OBU payload that av1C and players need (AV1 spec §5.5). */
export function parseSequenceHeader(payload: Uint8Array): Av1SequenceInfo {
  const r = new Bits(payload);
  const profile = r.f(3);
  r.f(1); // still_picture
  const reduced = r.f(1) === 1;
  let level = 0;
  let tier = 0;
  if (reduced) level = r.f(5);
  else {
    let decoderModel = false;
    let bufferDelayBits = 0;
    if (r.f(1)) { // timing_info_present_flag
      r.f(32); r.f(32);
      if (r.f(1)) r.uvlc();
      decoderModel = r.f(1) === 1;
      if (decoderModel) {
        bufferDelayBits = r.f(5) + 1;
        r.f(32); r.f(5); r.f(5);
      }
    }
    const initialDisplayDelay = r.f(1) === 1;
    const points = r.f(5) + 1;
    for (let i = 0; i < points; i++) {
      r.f(12);
      const lv = r.f(5);
      const t = lv > 7 ? r.f(1) : 0;
      if (i === 0) { level = lv; tier = t; }
      if (decoderModel && r.f(1)) { r.f(bufferDelayBits); r.f(bufferDelayBits); r.f(1); }
      if (initialDisplayDelay && r.f(1)) r.f(4);
    }
  }
  const wBits = r.f(4) + 1;
  const hBits = r.f(4) + 1;
  const maxWidth = r.f(wBits) + 1;
  const maxHeight = r.f(hBits) + 1;
  if (!reduced && r.f(1)) { r.f(4); r.f(3); } // frame_id_numbers_present_flag
  r.f(3); // use_128x128_superblock, enable_filter_intra, enable_intra_edge_filter
  if (!reduced) {
    r.f(4); // interintra, masked compound, warped motion, dual filter
    const orderHint = r.f(1) === 1;
    if (orderHint) r.f(2);
    const forceScreen = r.f(1) ? 2 : r.f(1);
    if (forceScreen > 0 && !r.f(1)) r.f(1);
    if (orderHint) r.f(3);
  }
  r.f(3); // superres, cdef, restoration
  const high = r.f(1) === 1;
  const bitDepth: 8 | 10 | 12 = profile === 2 && high ? (r.f(1) ? 12 : 10) : high ? 10 : 8;
  const monochrome = profile === 1 ? false : r.f(1) === 1;
  let cp = 2; let tc = 2; let mc = 2;
  if (r.f(1)) { cp = r.f(8); tc = r.f(8); mc = r.f(8); }
  let sx = 1; let sy = 1; let csp = 0;
  if (monochrome) r.f(1);
  else if (cp === 1 && tc === 13 && mc === 0) { sx = 0; sy = 0; }
  else {
    r.f(1); // color_range
    if (profile === 1) { sx = 0; sy = 0; }
    else if (profile === 2) {
      if (bitDepth === 12) { sx = r.f(1); sy = sx ? r.f(1) : 0; } else { sx = 1; sy = 0; }
    }
    if (sx && sy) csp = r.f(2);
  }
  return { profile, level, tier, bitDepth, monochrome, subsamplingX: sx, subsamplingY: sy, chromaSamplePosition: csp, maxWidth, maxHeight };
}

/** The first sequence header OBU of a temporal unit or record, or undefined. */
export function findSequenceHeader(data: Uint8Array): Obu | undefined {
  return splitObus(data).find((o) => o.type === OBU.SequenceHeader);
}

/** AV1CodecConfigurationRecord (the av1C payload, also Enhanced FLV's av01 SequenceStart body) for a sequence header OBU. */
export function buildAv1C(sequenceHeader: Obu): Buffer {
  const s = parseSequenceHeader(sequenceHeader.payload);
  const head = Buffer.from([
    0x81, // marker 1, version 1
    (s.profile << 5) | s.level,
    (s.tier << 7) | ((s.bitDepth > 8 ? 1 : 0) << 6) | ((s.bitDepth === 12 ? 1 : 0) << 5) | ((s.monochrome ? 1 : 0) << 4)
      | (s.subsamplingX << 3) | (s.subsamplingY << 2) | s.chromaSamplePosition,
    0, // no initial_presentation_delay
  ]);
  return Buffer.concat([head, sequenceHeader.bytes]);
}

/** The sequence header inside an av1C record (its configOBUs), or undefined. */
export function av1CSequenceHeader(av1C: Uint8Array): Av1SequenceInfo | undefined {
  if (av1C.length < 4 || av1C[0] !== 0x81) return undefined;
  const obu = findSequenceHeader(av1C.subarray(4));
  return obu ? parseSequenceHeader(obu.payload) : undefined;
}
