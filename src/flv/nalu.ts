// NALU list of a video tag body (length-prefixed, AVC or HEVC), parsed the tolerant way brec does.
import { fillerType, hevcNalus, nalType } from './codecs/nal.js';
import type { FlvTag, Nalu } from './tag.js';

/** nal_unit_type of H.264 filler data (HEVC's is 38: see codecs/nal.ts). */
export const NALU_FILLER_DATA = 12;

/**
 * Parses the NALUs after the 5-byte AVC video tag prefix.
 * Returns null when a NAL header has the forbidden bit set; a length that overruns the body just ends the list.
 */
export function parseNalus(body: Uint8Array): Nalu[] | null {
  const nalus: Nalu[] = [];
  const hevc = hevcNalus(body);
  const len = body.length;
  let pos = 5;
  while (pos + 5 <= len) {
    const size = ((body[pos]! << 24) | (body[pos + 1]! << 16) | (body[pos + 2]! << 8) | body[pos + 3]!) >>> 0;
    const header = body[pos + 4]!;
    if (header & 0x80) return null;
    nalus.push({ start: pos + 4, fullSize: size, type: nalType(hevc, header) });
    pos += 4 + size;
  }
  return nalus;
}

/** What the hot path needs from a NALU list, without building it. */
export interface NaluSummary {
  /** False when the list would be null (unparsable). */
  ok: boolean;
  /** 5 + Σ(NALU size + 4): the body size brec counts for a tag with a NALU list. */
  bodySize: number;
  /** A filler-data NALU is present. */
  filler: boolean;
  /** The NALUs cover the body exactly, so rebuilding it from them gives the same bytes. */
  tiles: boolean;
}

/** The same walk as parseNalus, allocation-free (`out` is filled and returned). */
export function scanNalus(body: Uint8Array, out: NaluSummary): NaluSummary {
  const len = body.length;
  const hevc = hevcNalus(body);
  const filler = fillerType(hevc);
  let pos = 5;
  let size5 = 5;
  let hasFiller = false;
  let tiles = true;
  while (pos + 5 <= len) {
    const size = ((body[pos]! << 24) | (body[pos + 1]! << 16) | (body[pos + 2]! << 8) | body[pos + 3]!) >>> 0;
    const header = body[pos + 4]!;
    if (header & 0x80) {
      out.ok = false;
      out.bodySize = 0;
      out.filler = false;
      out.tiles = false;
      return out;
    }
    if (nalType(hevc, header) === filler) hasFiller = true;
    size5 += size + 4;
    pos += 4 + size;
  }
  if (pos !== len) tiles = false;
  out.ok = true;
  out.bodySize = size5;
  out.filler = hasFiller;
  out.tiles = tiles;
  return out;
}

/** Summary of an existing NALU list against its body. */
export function summarizeList(nalus: readonly Nalu[] | null, body: Uint8Array | null, out: NaluSummary): NaluSummary {
  if (!nalus) {
    out.ok = false;
    out.bodySize = 0;
    out.filler = false;
    out.tiles = false;
    return out;
  }
  let size5 = 5;
  let filler = false;
  let expect = 9;
  let tiles = true;
  const fillerNal = fillerType(hevcNalus(body));
  for (const n of nalus) {
    if (n.type === fillerNal) filler = true;
    if (n.start !== expect) tiles = false;
    size5 += n.fullSize + 4;
    expect = n.start + n.fullSize + 4;
  }
  out.ok = true;
  out.bodySize = size5;
  out.filler = filler;
  out.tiles = tiles && body !== null && expect - 4 === body.length;
  return out;
}

/** A tag that can answer {@link NaluSummary} questions without materialising its list (see ParsedTag). */
export interface LazyNalus {
  naluSummary(out: NaluSummary): NaluSummary;
}

const isLazy = (t: FlvTag): t is FlvTag & LazyNalus => typeof (t as Partial<LazyNalus>).naluSummary === 'function';

/** The NALU summary of any tag (parsed lazily or not). */
export function naluSummary(tag: FlvTag, out: NaluSummary): NaluSummary {
  return isLazy(tag) ? tag.naluSummary(out) : summarizeList(tag.nalus, tag.data, out);
}
