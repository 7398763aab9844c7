// Builds a codec-12 (Bilibili) HEVC FLV from an Annex-B HEVC stream and an AAC FLV: used by generate-clips.ts.
import { HEVC_NAL, buildHvcc, hevcNalType } from '../flv/codecs/hevc.js';
import { FlvParser } from '../flv/parser.js';
import { FLV_FILE_HEADER, encodeTag } from '../flv/tag-encoding.js';
import { TagType } from '../flv/tag.js';

/** Splits an Annex-B byte stream at its start codes (3 or 4 bytes). */
export function splitAnnexB(data: Uint8Array): Uint8Array[] {
  const starts: number[] = [];
  for (let i = 0; i + 3 <= data.length; i++) {
    if (data[i] === 0 && data[i + 1] === 0 && data[i + 2] === 1) {
      starts.push(i + 3);
      i += 2;
    }
  }
  return starts.map((s, k) => {
    let end = k + 1 < starts.length ? starts[k + 1]! - 3 : data.length;
    while (end > s && data[end - 1] === 0) end--; // a 4-byte start code's leading zero
    return data.subarray(s, end);
  });
}

/**
 * One FLV per call: an onMetaData tag, the hvcC sequence header, then every access unit as a codec-12 tag
 * (parameter sets go into the record, SEI and slices stay) at `frameMs` intervals, interleaved with the
 * AAC tags of `aacFlv` (header and data) by timestamp.
 */
export function hevcFlv(annexB: Uint8Array, aacFlv: Uint8Array, frameMs: number): Buffer {
  const nalus = splitAnnexB(annexB);
  const find = (type: number): Uint8Array => {
    const n = nalus.find((x) => hevcNalType(x[0]!) === type);
    if (!n) throw new Error(`HEVC stream lacks NAL type ${type}`);
    return n;
  };
  const record = buildHvcc(find(HEVC_NAL.Vps), find(HEVC_NAL.Sps), find(HEVC_NAL.Pps));
  const frames: { key: boolean; nalus: Uint8Array[] }[] = [];
  let pending: Uint8Array[] = [];
  for (const n of nalus) {
    const type = hevcNalType(n[0]!);
    if (type === HEVC_NAL.Vps || type === HEVC_NAL.Sps || type === HEVC_NAL.Pps || type === HEVC_NAL.Aud) continue;
    if (type >= 32) {
      pending.push(n);
      continue;
    }
    // first_slice_segment_in_pic_flag (top bit after the header) starts a picture.
    if ((n[2]! & 0x80) !== 0 || frames.length === 0) frames.push({ key: type >= 16 && type <= 21, nalus: [] });
    frames.at(-1)!.nalus.push(...pending, n);
    pending = [];
  }
  const audio = new FlvParser().push(aacFlv).tags.filter((t) => t.type === TagType.Audio);
  const out: { ts: number; order: number; tag: Buffer }[] = [];
  out.push({ ts: -1, order: 0, tag: encodeTag(TagType.Video, 0, Buffer.concat([Uint8Array.of(0x1c, 0, 0, 0, 0), record])) });
  frames.forEach((f, i) => {
    const parts: Uint8Array[] = [Uint8Array.of(f.key ? 0x1c : 0x2c, 1, 0, 0, 0)];
    for (const n of f.nalus) parts.push(Uint8Array.of(n.length >>> 24, (n.length >>> 16) & 0xff, (n.length >>> 8) & 0xff, n.length & 0xff), n);
    out.push({ ts: Math.round(i * frameMs), order: 2, tag: encodeTag(TagType.Video, Math.round(i * frameMs), Buffer.concat(parts)) });
  });
  for (const a of audio) {
    const header = a.data!.length > 1 && a.data![1] === 0;
    out.push({ ts: header ? -1 : a.timestamp, order: header ? 1 : 3, tag: encodeTag(TagType.Audio, header ? 0 : a.timestamp, a.data!) });
  }
  out.sort((x, y) => x.ts - y.ts || x.order - y.order);
  return Buffer.concat([FLV_FILE_HEADER, ...out.map((o) => o.tag)]);
}
