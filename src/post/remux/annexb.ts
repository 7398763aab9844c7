// Annex B access units (MPEG-TS video) → MP4 samples (4-byte lengths) and the avcC/hvcC built from their parameter sets.
import { buildHvcc, hevcNalType, HEVC_NAL, isIrap } from '../../flv/codecs/hevc.js';

/** The NAL units of an Annex B buffer (start codes removed). */
export function splitAnnexB(b: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let start = -1;
  let i = 0;
  while (i + 2 < b.length) {
    if (b[i] === 0 && b[i + 1] === 0 && b[i + 2] === 1) {
      if (start >= 0) {
        let end = i;
        while (end > start && b[end - 1] === 0) end--;
        out.push(b.subarray(start, end));
      }
      i += 3;
      start = i;
    } else i++;
  }
  if (start >= 0 && start < b.length) out.push(b.subarray(start));
  return out;
}

export interface AccessUnit {
  sample: Buffer;
  key: boolean;
}

/** Collects parameter sets until a configuration record can be built; converts access units to samples. */
export class AnnexBConverter {
  private sps: Uint8Array | null = null;
  private pps: Uint8Array | null = null;
  private vps: Uint8Array | null = null;
  config: Uint8Array | null = null;

  constructor(readonly hevc: boolean) {}

  convert(au: Uint8Array): AccessUnit | null {
    const parts: Uint8Array[] = [];
    let key = false;
    for (const nal of splitAnnexB(au)) {
      if (nal.length === 0) continue;
      const type = this.hevc ? hevcNalType(nal[0]!) : nal[0]! & 0x1f;
      if (this.hevc) {
        if (type === HEVC_NAL.Vps) { this.vps ??= Buffer.from(nal); continue; }
        if (type === HEVC_NAL.Sps) { this.sps ??= Buffer.from(nal); continue; }
        if (type === HEVC_NAL.Pps) { this.pps ??= Buffer.from(nal); continue; }
        if (type === HEVC_NAL.Aud) continue;
        if (isIrap(type)) key = true;
      } else {
        if (type === 7) { this.sps ??= Buffer.from(nal); continue; }
        if (type === 8) { this.pps ??= Buffer.from(nal); continue; }
        if (type === 9) continue;
        if (type === 5) key = true;
      }
      const len = Buffer.alloc(4);
      len.writeUInt32BE(nal.length, 0);
      parts.push(len, nal);
    }
    if (!this.config && this.sps && this.pps && (!this.hevc || this.vps)) {
      this.config = this.hevc ? buildHvcc(this.vps!, this.sps, this.pps) : avcc(this.sps, this.pps);
    }
    return parts.length ? { sample: Buffer.concat(parts), key } : null;
  }
}

function avcc(sps: Uint8Array, pps: Uint8Array): Buffer {
  return Buffer.concat([
    Buffer.from([1, sps[1]!, sps[2]!, sps[3]!, 0xff, 0xe1, sps.length >> 8, sps.length & 0xff]), sps,
    Buffer.from([1, pps.length >> 8, pps.length & 0xff]), pps,
  ]);
}
