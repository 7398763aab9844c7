// Names used by brec's XML tag-list format: tag types, flag sets, NALU types.
import { HEVC_NALU_NAMES } from '../codecs/hevc.js';
import { NaluTypeByName, NaluTypeName, TagFlag, TagType } from '../tag.js';

export const TAG_TYPE_NAME: Record<number, string> = { [TagType.Audio]: 'Audio', [TagType.Video]: 'Video', [TagType.Script]: 'Script' };
export const TAG_TYPE_BY_NAME: Record<string, number> = { Audio: TagType.Audio, Video: TagType.Video, Script: TagType.Script };

/** "Header Keyframe" etc., in enum order; empty string for None. */
export function flagText(flag: number): string {
  const names: string[] = [];
  if (flag & TagFlag.Header) names.push('Header');
  if (flag & TagFlag.Keyframe) names.push('Keyframe');
  if (flag & TagFlag.End) names.push('End');
  return names.join(' ');
}

export function parseFlagText(text: string | undefined): number {
  let flag = 0;
  for (const name of (text ?? '').split(/[\s,]+/)) {
    if (name === 'Header') flag |= TagFlag.Header;
    else if (name === 'Keyframe') flag |= TagFlag.Keyframe;
    else if (name === 'End') flag |= TagFlag.End;
  }
  return flag;
}

/** `hevc`: the tag carries HEVC NAL units (codec id 12), named `Hevc…`. */
export function naluTypeText(type: number, hevc = false): string {
  return (hevc ? HEVC_NALU_NAMES[type] : NaluTypeName[type]) ?? String(type);
}

const HEVC_BY_NAME: Record<string, number> = Object.fromEntries(Object.entries(HEVC_NALU_NAMES).map(([k, v]) => [v, Number(k)]));

export function parseNaluType(text: string): number {
  const known = NaluTypeByName[text] ?? HEVC_BY_NAME[text];
  if (known !== undefined) return known;
  const n = Number(text);
  return Number.isInteger(n) ? n : 0;
}
