// For `liverec check`: what a recorded file's stream was (origin, re-encode, transcode), read back from the file's own metadata.
import { closeSync, openSync, readSync } from 'node:fs';
import type { SourceKind } from '../bilibili/provenance.js';
import type { AmfValue } from '../flv/amf.js';
import { onMetaDataMap } from '../flv/metadata.js';
import { FlvParser } from '../flv/parser.js';
import { TagType } from '../flv/tag.js';
import { readSourceBox } from '../hls/mp4-source-box.js';

export interface FileSource {
  kind: SourceKind;
  qn: number;
  codec: string;
  originBitrate: number;
  streamName: string;
  evidence: string[];
}

/** onMetaData sits at the start of a file; its padding is bounded, so the head is enough. */
const HEAD_BYTES = 1 << 20;
const KINDS: readonly string[] = ['origin', 'reencode', 'transcode', 'unknown'];

/**
 * The source liverec wrote into a recording: in an FLV, the onMetaData `liverec` block (SourceKind, SourceQn, SourceCodec,
 * SourceOriginBitrate, SourceStreamName, SourceEvidence); in an MP4, the source box after moov. Null for a file without
 * it (another recorder's, FlvWriteMetadata off, MPEG-TS). Never throws: a file that does not parse has no source.
 */
export function fileSource(path: string): FileSource | null {
  let head: Buffer;
  try {
    const fd = openSync(path, 'r');
    try {
      head = Buffer.alloc(HEAD_BYTES);
      head = head.subarray(0, readSync(fd, head, 0, HEAD_BYTES, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
  if (head.subarray(0, 3).toString('latin1') !== 'FLV') return mp4Source(head);
  const { tags } = new FlvParser().push(head);
  const block = onMetaDataMap(tags.find((t) => t.type === TagType.Script)?.script)?.get('liverec');
  if (!block || block.type !== 'EcmaArray') return null;
  const get = (key: string): AmfValue | undefined => block.value.get(key);
  const str = (key: string): string => { const v = get(key); return v?.type === 'String' ? v.value : ''; };
  const num = (key: string): number => { const v = get(key); return v?.type === 'Number' ? v.value : 0; };
  const kind = str('SourceKind');
  if (!KINDS.includes(kind)) return null;
  return {
    kind: kind as SourceKind, qn: num('SourceQn'), codec: str('SourceCodec'), originBitrate: num('SourceOriginBitrate'),
    streamName: str('SourceStreamName'), evidence: str('SourceEvidence').split('; ').filter(Boolean),
  };
}

/** One line for a check report: `origin (qn 25000, avc): name without suffix; suffix=origin`. */
export function sourceLine(source: FileSource | null): string {
  if (!source) return 'unknown (no liverec source metadata)';
  const parts = [source.qn ? `qn ${source.qn}` : '', source.codec].filter(Boolean).join(', ');
  return `${source.kind}${parts ? ` (${parts})` : ''}${source.evidence.length ? `: ${source.evidence.join('; ')}` : ''}`;
}

/** An MP4 recording's source box (see src/hls/mp4-source-box.ts): the webhook-shaped Source as JSON. */
function mp4Source(head: Buffer): FileSource | null {
  const v = readSourceBox(head);
  if (!v || typeof v.Kind !== 'string' || !KINDS.includes(v.Kind)) return null;
  const n = (x: unknown): number => (typeof x === 'number' ? x : 0);
  return {
    kind: v.Kind as SourceKind, qn: n(v.Qn), codec: typeof v.Codec === 'string' ? v.Codec : '', originBitrate: n(v.OriginBitrate),
    streamName: typeof v.StreamName === 'string' ? v.StreamName : '', evidence: Array.isArray(v.Evidence) ? v.Evidence.filter((e): e is string => typeof e === 'string') : [],
  };
}
