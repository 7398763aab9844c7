// Picture size from an AVC sequence header (the SPS inside its AVCDecoderConfigurationRecord).
import { BitReader, unescapeRbsp } from './codecs/bit-reader.js';

const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

/** Width and height in pixels from an SPS NAL unit (with its header byte), or null if it cannot be read. */
export function spsPictureSize(nal: Uint8Array): { width: number; height: number } | null {
  try {
    const r = new BitReader(unescapeRbsp(nal));
    r.bits(8);
    const profile = r.bits(8);
    r.bits(16);
    r.ue();
    let chroma = 1;
    let separate = 0;
    if (HIGH_PROFILES.has(profile)) {
      chroma = r.ue();
      if (chroma === 3) separate = r.bit();
      r.ue();
      r.ue();
      r.bit();
      if (r.bit()) {
        for (let i = 0; i < (chroma === 3 ? 12 : 8); i++) {
          if (!r.bit()) continue;
          let last = 8, next = 8;
          for (let j = 0; j < (i < 6 ? 16 : 64); j++) {
            if (next !== 0) next = (last + r.se() + 256) % 256;
            last = next === 0 ? last : next;
          }
        }
      }
    }
    r.ue();
    const pocType = r.ue();
    if (pocType === 0) r.ue();
    else if (pocType === 1) {
      r.bit();
      r.se();
      r.se();
      const n = r.ue();
      for (let i = 0; i < n; i++) r.se();
    }
    r.ue();
    r.bit();
    const wMbs = r.ue() + 1;
    const hMap = r.ue() + 1;
    const frameMbsOnly = r.bit();
    if (!frameMbsOnly) r.bit();
    r.bit();
    let cl = 0, cr = 0, ct = 0, cb = 0;
    if (r.bit()) {
      cl = r.ue(); cr = r.ue(); ct = r.ue(); cb = r.ue();
    }
    const arrayType = separate ? 0 : chroma;
    const cropX = arrayType === 0 ? 1 : chroma === 3 ? 1 : 2;
    const cropY = (arrayType === 0 ? 1 : chroma === 1 ? 2 : 1) * (2 - frameMbsOnly);
    const width = wMbs * 16 - cropX * (cl + cr);
    const height = (2 - frameMbsOnly) * hMap * 16 - cropY * (ct + cb);
    return width > 0 && height > 0 ? { width, height } : null;
  } catch {
    return null;
  }
}

/** Width and height from an AVC sequence-header tag body (0x17 0x00 ... AVCDecoderConfigurationRecord). */
export function avcHeaderPictureSize(body: Uint8Array | null): { width: number; height: number } | null {
  if (!body || body.length < 5 + 8) return null;
  const rec = body.subarray(5);
  if ((rec[5]! & 0x1f) < 1) return null;
  const len = (rec[6]! << 8) | rec[7]!;
  if (8 + len > rec.length) return null;
  return spsPictureSize(rec.subarray(8, 8 + len));
}
