// The FLV tag model: type, flag set, timestamps, body view, NALU list, and the predicates the rules use.
import type { AmfValue } from './amf.js';

export const TagType = { Audio: 8, Video: 9, Script: 18 } as const;
export type TagType = (typeof TagType)[keyof typeof TagType];

/** Flags form a bit set, as in brec: a video sequence header is Header|Keyframe, an end tag Keyframe|End. */
export const TagFlag = { None: 0, Header: 1, Keyframe: 2, End: 4 } as const;

export interface Nalu {
  /** Offset of the NAL header byte inside the tag body (the first one is 9). */
  start: number;
  /** The declared NALU length (may overrun the body; tolerated). */
  fullSize: number;
  /** nal_unit_type: AVC byte & 0x1f; HEVC (codec id 12) (byte >> 1) & 0x3f. */
  type: number;
  /** Hash of the NALU bytes, when computed or read from XML. */
  hash?: string;
}

export interface TagExtra {
  firstBytes?: string;
  compositionTime?: number;
  finalTime?: number;
}

export interface FlvTag {
  type: TagType;
  flag: number;
  /** DataSize as read; the pipeline never changes it, even when the written body shrinks. */
  size: number;
  /** Signed 32-bit milliseconds; rules rewrite it. */
  timestamp: number;
  /** Running index from 1 per reader; -1 when unknown (XML input). */
  index: number;
  /** The tag body (a zero-copy view into parser input), or null when absent (XML data tags). */
  data: Uint8Array | null;
  /** Parsed NALUs for non-header video tags; null when not parsed or unparsable. */
  nalus: Nalu[] | null;
  /** Content hash (16 upper-case hex chars), from XML or computed lazily. */
  dataHash: string | null;
  /** The body's own 64-bit hash (tagContentHash), cached; undefined until computed, dropped when `data` changes. */
  hashHi?: number;
  hashLo?: number;
  /** Decoded AMF values of a script tag; null when the body could not be decoded. */
  script?: AmfValue[] | null;
  extra?: TagExtra;
}

export const NaluTypeName: Record<number, string> = {
  1: 'CodedSliceOfANonIdrPicture',
  2: 'CodedSliceDataPartitionA',
  3: 'CodedSliceDataPartitionB',
  4: 'CodedSliceDataPartitionC',
  5: 'CodedSliceOfAnIdrPicture',
  6: 'Sei',
  7: 'Sps',
  8: 'Pps',
  9: 'AccessUnitDelimiter',
  10: 'EndOfSequence',
  11: 'EndOfStream',
  12: 'FillerData',
  13: 'SpsExtension',
  14: 'PrefixNalUnit',
  15: 'SubsetSps',
  16: 'DepthParameterSet',
  19: 'CodedSliceOfAnAuxiliaryCodedPicture',
  20: 'CodedSliceExtension',
  21: 'CodedSliceExtensionForDepthView',
};

export const NaluTypeByName: Record<string, number> = Object.fromEntries(
  Object.entries(NaluTypeName).map(([k, v]) => [v, Number(k)]),
);

export const isAudioOrVideo = (t: FlvTag): boolean => t.type === TagType.Audio || t.type === TagType.Video;
export const isHeader = (t: FlvTag): boolean => (t.flag & TagFlag.Header) !== 0 && isAudioOrVideo(t);
export const isEnd = (t: FlvTag): boolean => (t.flag & TagFlag.End) !== 0;
export const isData = (t: FlvTag): boolean =>
  isAudioOrVideo(t) && (t.flag & (TagFlag.Header | TagFlag.End)) === 0;
export const isNonKeyframeData = (t: FlvTag): boolean => isAudioOrVideo(t) && t.flag === TagFlag.None;
export const isKeyframeData = (t: FlvTag): boolean => t.type === TagType.Video && t.flag === TagFlag.Keyframe;

/** A copy that shares no mutable state with the original (bytes are copied, extra is not, as in brec). */
export function cloneTag(t: FlvTag): FlvTag {
  return {
    type: t.type,
    flag: t.flag,
    size: t.size,
    timestamp: t.timestamp,
    index: t.index,
    data: t.data ? t.data.slice() : null,
    nalus: t.nalus ? t.nalus.map((n) => ({ ...n })) : null,
    dataHash: t.dataHash,
    script: t.script,
  };
}

/** brec's display form, e.g. `V, KH-, TS=0, Size=49`. */
export function describeTag(t: FlvTag): string {
  const letter = t.type === TagType.Audio ? 'A' : t.type === TagType.Video ? 'V' : 'S';
  const k = t.flag & TagFlag.Keyframe ? 'K' : '-';
  const h = t.flag & TagFlag.Header ? 'H' : '-';
  const e = t.flag & TagFlag.End ? 'E' : '-';
  return `${letter}, ${k}${h}${e}, TS=${t.timestamp}, Size=${t.size}`;
}
