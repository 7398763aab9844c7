// The file-level provenance of an MP4 recording: a top-level `uuid` box after ftyp+moov holding the Source as JSON (players skip it).
import { boxes } from './mp4-boxes.js';

/** 16 bytes: the extended type that marks liverec's source box. */
const SOURCE_UUID = Buffer.from('liverec-source-1', 'latin1');

/** `uuid` box: size, 'uuid', the 16-byte extended type, then UTF-8 JSON. */
export function sourceBox(value: object): Buffer {
  const json = Buffer.from(JSON.stringify(value), 'utf8');
  const out = Buffer.alloc(8 + 16 + json.length);
  out.writeUInt32BE(out.length, 0);
  out.write('uuid', 4, 'latin1');
  SOURCE_UUID.copy(out, 8);
  json.copy(out, 24);
  return out;
}

/** The JSON of liverec's source box among the top-level boxes of `head` (the start of a file), or null. */
export function readSourceBox(head: Uint8Array): Record<string, unknown> | null {
  for (const b of boxes(head)) {
    if (b.type !== 'uuid' || b.end > head.length || b.end - b.start < 24) continue;
    const buf = Buffer.from(head.buffer, head.byteOffset + b.start, b.end - b.start);
    if (!buf.subarray(8, 24).equals(SOURCE_UUID)) continue;
    try {
      const v = JSON.parse(buf.subarray(24).toString('utf8')) as unknown;
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }
  return null;
}
