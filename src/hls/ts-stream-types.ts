// What a PMT entry carries: the stream types liverec reads (H.264, HEVC, AV1 by its registration; AAC, MPEG audio).

export type TsKind = 'video' | 'audio';

/** PMT stream types read by type alone: H.264, HEVC; AAC (ADTS), MPEG audio. */
const STREAM_KINDS: Record<number, { kind: TsKind; codec: string }> = {
  0x1b: { kind: 'video', codec: 'h264' }, 0x24: { kind: 'video', codec: 'hevc' },
  0x0f: { kind: 'audio', codec: 'aac' }, 0x03: { kind: 'audio', codec: 'mp3' }, 0x04: { kind: 'audio', codec: 'mp3' },
};

/**
 * AV1 (AOM "Carriage of AV1 in MPEG-2 TS"): stream_type 0x06, private PES, identified by a registration descriptor
 * (tag 0x05) with format_identifier 'AV01'; its access units are start-code delimited OBUs, one per PES.
 */
export const PRIVATE_PES = 0x06;
export const AV1_FORMAT_IDENTIFIER = 0x41563031;

/** A PMT entry the scanner does not read (its packets stay in the file; only its frames and times go uncounted). */
export interface TsUnknownStream {
  pid: number;
  streamType: number;
  /** format_identifier of its registration descriptor, '' without one. */
  registration: string;
}

/** The registration descriptor's format_identifier in an ES_info loop (descriptors from `from` to `end`), or 0. */
export function registrationOf(b: Uint8Array, from: number, end: number): number {
  for (let d = from; d + 2 <= end; d += 2 + b[d + 1]!) {
    if (b[d] === 0x05 && b[d + 1]! >= 4 && d + 6 <= end) return ((b[d + 2]! << 24) | (b[d + 3]! << 16) | (b[d + 4]! << 8) | b[d + 5]!) >>> 0;
  }
  return 0;
}

/** A format_identifier as text for logs ('' for none; bytes outside printable ASCII as '?'). */
export function registrationName(id: number): string {
  if (!id) return '';
  return Buffer.from([id >>> 24, (id >> 16) & 0xff, (id >> 8) & 0xff, id & 0xff]).toString('latin1').replace(/[^\x20-\x7e]/g, '?');
}

/** The kind and codec of a PMT entry liverec reads, or null for one it does not. */
export function identifyStream(streamType: number, registration: number): { kind: TsKind; codec: string } | null {
  if (streamType === PRIVATE_PES && registration === AV1_FORMAT_IDENTIFIER) return { kind: 'video', codec: 'av1' };
  return STREAM_KINDS[streamType] ?? null;
}
