// HEVC specifics: NAL unit types, the HEVCDecoderConfigurationRecord (hvcC), and picture size / frame rate from the SPS.
import { BitReader, unescapeRbsp } from './bit-reader.js';

export const HEVC_NAL = { Vps: 32, Sps: 33, Pps: 34, Aud: 35, EndOfSequence: 36, EndOfBitstream: 37, FillerData: 38, PrefixSei: 39, SuffixSei: 40 } as const;

/** nal_unit_type from the first byte of a two-byte HEVC NAL header. */
export const hevcNalType = (byte0: number): number => (byte0 >> 1) & 0x3f;

/** IRAP pictures (BLA 16–18, IDR 19–20, CRA 21): where decoding can start. */
export const isIrap = (type: number): boolean => type >= 16 && type <= 21;

export interface HevcSpsInfo {
  width: number;
  height: number;
  /** From VUI timing when present, else 0. */
  fps: number;
  chromaFormat: number;
  bitDepthLuma: number;
  bitDepthChroma: number;
  maxSubLayers: number;
  temporalIdNested: boolean;
}

function skipProfileTierLevel(r: BitReader, maxSubLayersMinus1: number): void {
  r.skip(96); // general profile (88 bits) and level (8)
  const profile: boolean[] = [];
  const level: boolean[] = [];
  for (let i = 0; i < maxSubLayersMinus1; i++) {
    profile.push(r.bit() === 1);
    level.push(r.bit() === 1);
  }
  if (maxSubLayersMinus1 > 0) for (let i = maxSubLayersMinus1; i < 8; i++) r.skip(2);
  for (let i = 0; i < maxSubLayersMinus1; i++) {
    if (profile[i]) r.skip(88);
    if (level[i]) r.skip(8);
  }
}

function skipScalingListData(r: BitReader): void {
  for (let sizeId = 0; sizeId < 4; sizeId++) {
    for (let matrixId = 0; matrixId < 6; matrixId += sizeId === 3 ? 3 : 1) {
      if (!r.bit()) {
        r.ue();
        continue;
      }
      const coefNum = Math.min(64, 1 << (4 + (sizeId << 1)));
      if (sizeId > 1) r.se();
      for (let i = 0; i < coefNum; i++) r.se();
    }
  }
}

/** st_ref_pic_set(idx) inside the SPS; returns NumDeltaPocs of this set. */
function skipShortTermRefPicSet(r: BitReader, idx: number, numDeltaPocs: number[]): number {
  if (idx !== 0 && r.bit()) {
    r.bit();
    r.ue();
    let n = 0;
    for (let j = 0; j <= numDeltaPocs[idx - 1]!; j++) {
      const used = r.bit();
      const useDelta = used ? 1 : r.bit();
      if (used || useDelta) n++;
    }
    return n;
  }
  const neg = r.ue();
  const pos = r.ue();
  if (neg > 64 || pos > 64) throw new RangeError('bad short-term reference picture set');
  for (let i = 0; i < neg + pos; i++) {
    r.ue();
    r.bit();
  }
  return neg + pos;
}

/** Reads an SPS NAL unit (two-byte header included); null when it cannot be read. */
export function parseHevcSps(nal: Uint8Array): HevcSpsInfo | null {
  try {
    const r = new BitReader(unescapeRbsp(nal), 2);
    r.skip(4);
    const maxSubLayersMinus1 = r.bits(3);
    const nested = r.bit() === 1;
    skipProfileTierLevel(r, maxSubLayersMinus1);
    r.ue();
    const chroma = r.ue();
    const separate = chroma === 3 ? r.bit() : 0;
    const w = r.ue();
    const h = r.ue();
    let left = 0, right = 0, top = 0, bottom = 0;
    if (r.bit()) {
      left = r.ue(); right = r.ue(); top = r.ue(); bottom = r.ue();
    }
    const bitDepthLuma = r.ue() + 8;
    const bitDepthChroma = r.ue() + 8;
    const subW = separate === 0 && (chroma === 1 || chroma === 2) ? 2 : 1;
    const subH = separate === 0 && chroma === 1 ? 2 : 1;
    const info: HevcSpsInfo = {
      width: w - subW * (left + right), height: h - subH * (top + bottom), fps: 0, chromaFormat: chroma,
      bitDepthLuma, bitDepthChroma, maxSubLayers: maxSubLayersMinus1 + 1, temporalIdNested: nested,
    };
    if (info.width <= 0 || info.height <= 0) return null;
    try {
      info.fps = readVuiFps(r, maxSubLayersMinus1);
    } catch {
      // Size is known; a VUI we cannot follow only loses the frame rate.
    }
    return info;
  } catch {
    return null;
  }
}

/** Continues after bit_depth_chroma to the VUI timing info; 0 when absent. */
function readVuiFps(r: BitReader, maxSubLayersMinus1: number): number {
  const log2MaxPocLsb = r.ue() + 4;
  const orderingAll = r.bit();
  for (let i = orderingAll ? 0 : maxSubLayersMinus1; i <= maxSubLayersMinus1; i++) {
    r.ue(); r.ue(); r.ue();
  }
  for (let i = 0; i < 6; i++) r.ue();
  if (r.bit() && r.bit()) skipScalingListData(r);
  r.skip(2);
  if (r.bit()) {
    r.skip(8);
    r.ue();
    r.ue();
    r.bit();
  }
  const sets = r.ue();
  if (sets > 64) throw new RangeError('too many reference picture sets');
  const deltas: number[] = [];
  for (let i = 0; i < sets; i++) deltas.push(skipShortTermRefPicSet(r, i, deltas));
  if (r.bit()) {
    const n = r.ue();
    if (n > 32) throw new RangeError('too many long-term pictures');
    for (let i = 0; i < n; i++) r.skip(log2MaxPocLsb + 1);
  }
  r.skip(2);
  if (!r.bit()) return 0;
  if (r.bit() && r.bits(8) === 255) r.skip(32);
  if (r.bit()) r.bit();
  if (r.bit()) {
    r.skip(4);
    if (r.bit()) r.skip(24);
  }
  if (r.bit()) {
    r.ue();
    r.ue();
  }
  r.skip(3);
  if (r.bit()) {
    r.ue(); r.ue(); r.ue(); r.ue();
  }
  if (!r.bit()) return 0;
  const unitsInTick = r.bits(32);
  const timeScale = r.bits(32);
  return unitsInTick > 0 ? timeScale / unitsInTick : 0;
}

/** The parameter sets of an hvcC record, by NAL type; null when the record is malformed. */
export function hvccNalus(rec: Uint8Array): { type: number; nalu: Uint8Array }[] | null {
  if (rec.length < 23) return null;
  const out: { type: number; nalu: Uint8Array }[] = [];
  let pos = 23;
  for (let a = 0; a < rec[22]!; a++) {
    if (pos + 3 > rec.length) return null;
    const type = rec[pos]! & 0x3f;
    const count = (rec[pos + 1]! << 8) | rec[pos + 2]!;
    pos += 3;
    for (let i = 0; i < count; i++) {
      if (pos + 2 > rec.length) return null;
      const len = (rec[pos]! << 8) | rec[pos + 1]!;
      if (pos + 2 + len > rec.length) return null;
      out.push({ type, nalu: rec.subarray(pos + 2, pos + 2 + len) });
      pos += 2 + len;
    }
  }
  return out;
}

/** The SPS facts of an hvcC record (the first SPS), or null. */
export function hvccSpsInfo(rec: Uint8Array): HevcSpsInfo | null {
  const sps = hvccNalus(rec)?.find((n) => n.type === HEVC_NAL.Sps);
  return sps ? parseHevcSps(sps.nalu) : null;
}

/** Builds an hvcC record (4-byte NALU lengths) from VPS, SPS and PPS NAL units. */
export function buildHvcc(vps: Uint8Array, sps: Uint8Array, pps: Uint8Array): Uint8Array {
  const info = parseHevcSps(sps);
  if (!info) throw new RangeError('SPS cannot be read');
  const rbsp = unescapeRbsp(sps);
  const head = new Uint8Array(23);
  head[0] = 1;
  head.set(rbsp.subarray(3, 15), 1); // profile space/tier/idc, compatibility and constraint flags, level
  head.set([0xf0, 0x00, 0xfc, 0xfc | info.chromaFormat, 0xf8 | (info.bitDepthLuma - 8), 0xf8 | (info.bitDepthChroma - 8), 0, 0], 13);
  head[21] = (info.maxSubLayers << 3) | (info.temporalIdNested ? 4 : 0) | 3;
  head[22] = 3;
  const parts: Uint8Array[] = [head];
  for (const [type, nal] of [[HEVC_NAL.Vps, vps], [HEVC_NAL.Sps, sps], [HEVC_NAL.Pps, pps]] as const) {
    parts.push(Uint8Array.of(0x80 | type, 0, 1, nal.length >> 8, nal.length & 0xff), nal);
  }
  return Buffer.concat(parts);
}

/** XML tag-list names of HEVC NAL unit types (brec's AVC names are H.264's; these follow H.265 Table 7-1). */
export const HEVC_NALU_NAMES: Readonly<Record<number, string>> = {
  0: 'HevcTrailN', 1: 'HevcTrailR', 2: 'HevcTsaN', 3: 'HevcTsaR', 4: 'HevcStsaN', 5: 'HevcStsaR', 6: 'HevcRadlN', 7: 'HevcRadlR',
  8: 'HevcRaslN', 9: 'HevcRaslR', 16: 'HevcBlaWLp', 17: 'HevcBlaWRadl', 18: 'HevcBlaNLp', 19: 'HevcIdrWRadl', 20: 'HevcIdrNLp',
  21: 'HevcCra', 32: 'HevcVps', 33: 'HevcSps', 34: 'HevcPps', 35: 'HevcAud', 36: 'HevcEndOfSequence', 37: 'HevcEndOfBitstream',
  38: 'HevcFillerData', 39: 'HevcPrefixSei', 40: 'HevcSuffixSei',
};
