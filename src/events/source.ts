// The `Source` object of FileOpening/FileClosed (liverec's extension to brec's webhook v2): where the file's stream came from.
import type { SourceKind, StreamProvenance } from '../bilibili/provenance.js';

/** PascalCase like the rest of EventData; receivers that ignore unknown fields are unaffected. */
export interface EventSource {
  /** origin | reencode | transcode | unknown */
  Kind: SourceKind;
  Qn: number;
  Codec: string;
  /** bit/s of the variant (0 unknown). */
  Bitrate: number;
  /** bit/s of the streamer's source (`origin_bitrate`, 0 unknown). */
  OriginBitrate: number;
  StreamName: string;
  Evidence: string[];
}

/** The room resource's `recordingSource` (camelCase): the provenance without its parsing detail. */
export type RecordingSource = Omit<StreamProvenance, 'suffix'>;

export function recordingSourceOf(p: StreamProvenance): RecordingSource {
  return { kind: p.kind, qn: p.qn, codec: p.codec, bitrate: p.bitrate, originBitrate: p.originBitrate, streamName: p.streamName, evidence: [...p.evidence] };
}

export function eventSourceOf(s: RecordingSource): EventSource {
  return { Kind: s.kind, Qn: s.qn, Codec: s.codec, Bitrate: s.bitrate, OriginBitrate: s.originBitrate, StreamName: s.streamName, Evidence: [...s.evidence] };
}
