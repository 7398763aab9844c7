// Picture sizes and sample entries from codec configuration records (avcC, hvcC, av1C).
import { spsPictureSize } from '../../flv/avc-sps.js';
import { hvccSpsInfo } from '../../flv/codecs/hevc.js';
import { av1CSequenceHeader } from '../../media/av1-config.js';
import { visualEntry } from './sample-entries.js';

export type VideoCodec = 'avc' | 'hevc' | 'av1';

function avccSize(rec: Uint8Array): { width: number; height: number } | null {
  if (rec.length < 8 || (rec[5]! & 0x1f) === 0) return null;
  const len = (rec[6]! << 8) | rec[7]!;
  return spsPictureSize(rec.subarray(8, 8 + len));
}

/** The sample entry (avc1/hvc1/av01) for a configuration record, with the picture size it declares. */
export function videoEntry(codec: VideoCodec, rec: Uint8Array): { entry: Buffer; width: number; height: number } {
  let size: { width: number; height: number } | null | undefined;
  try {
    if (codec === 'avc') size = avccSize(rec);
    else if (codec === 'hevc') size = hvccSpsInfo(rec);
    else {
      const s = av1CSequenceHeader(rec);
      size = s ? { width: s.maxWidth, height: s.maxHeight } : null;
    }
  } catch {
    size = null;
  }
  const width = size?.width ?? 0;
  const height = size?.height ?? 0;
  const entry = codec === 'avc' ? visualEntry('avc1', 'avcC', rec, width, height)
    : codec === 'hevc' ? visualEntry('hvc1', 'hvcC', rec, width, height)
      : visualEntry('av01', 'av1C', rec, width, height);
  return { entry, width, height };
}
