// Push parser for FLV byte streams: any chunk boundaries, zero-copy tag bodies, fatal problems as coded values.
import { decodeAmf } from './amf.js';
import { FlvError } from './errors.js';
import { parseNalus } from './nalu.js';
import { type FlvTag, TagFlag, TagType } from './tag.js';

export interface ParseResult {
  tags: FlvTag[];
  /** Set when the input cannot be parsed further; `tags` still holds everything before the problem. */
  error: FlvError | null;
}

/** Recoverable anomalies, counted rather than thrown. */
export interface ParserAnomalies {
  /** Bytes of an incomplete trailing tag dropped at end of stream. */
  truncatedBytes: number;
  /** Video tags whose NALU list could not be parsed. */
  badNalus: number;
  /** Script tags whose AMF body could not be decoded. */
  badScripts: number;
}

/**
 * Consumed-bytes core: parses the 9-byte file header at `buf[0..]`.
 * Returns bytes consumed (0 = need more data) or an error.
 */
export function parseFileHeader(buf: Uint8Array): number | FlvError {
  if (buf.length < 9) return 0;
  if (buf[0] !== 0x46 || buf[1] !== 0x4c || buf[2] !== 0x56 || buf[3] !== 1) {
    return new FlvError('NOT_FLV', 'Data is not FLV.');
  }
  if (buf[5] !== 0 || buf[6] !== 0 || buf[7] !== 0 || buf[8] !== 9) {
    return new FlvError('UNSUPPORTED_FLV_HEADER', 'Not supported FLV format: header length is not 9.');
  }
  return 9;
}

/** Derives the flag set exactly as brec does; returns an error for non-AVC video. */
export function detectFlag(type: number, body: Uint8Array): number | FlvError {
  if (body.length <= 2) return TagFlag.None;
  if (type === TagType.Audio) {
    return body[0]! >> 4 === 10 && body[1] === 0 ? TagFlag.Header : TagFlag.None;
  }
  if (type === TagType.Video) {
    const codec = body[0]! & 0x0f;
    if (codec !== 7) return new FlvError('UNSUPPORTED_CODEC', `Unsupported video codec id ${codec}; only H.264 (7) is supported.`);
    let flag = body[0] === 0x17 ? TagFlag.Keyframe : TagFlag.None;
    if (body[1] === 0) flag |= TagFlag.Header;
    else if (body[1] === 2) flag |= TagFlag.End;
    return flag;
  }
  return TagFlag.None;
}

export class FlvParser {
  readonly anomalies: ParserAnomalies = { truncatedBytes: 0, badNalus: 0, badScripts: 0 };
  /** Total bytes offered to the parser. */
  bytesIn = 0;
  private chunks: Uint8Array[] = [];
  private pendingBytes = 0;
  private needed = 9;
  private headerDone = false;
  private index = 0;
  private failed: FlvError | null = null;

  /** Offers the next bytes of the stream; returns every tag completed by them. */
  push(chunk: Uint8Array): ParseResult {
    if (this.failed) return { tags: [], error: this.failed };
    this.bytesIn += chunk.length;
    if (chunk.length === 0) return { tags: [], error: null };
    this.chunks.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes < this.needed) return { tags: [], error: null };

    // Join only once enough bytes for the next step have arrived: a large tag split over many
    // network chunks is copied once, not once per chunk.
    const buf = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.pendingBytes);
    const tags: FlvTag[] = [];
    let pos = 0;
    let error: FlvError | null = null;
    if (!this.headerDone) {
      const r = parseFileHeader(buf);
      if (r instanceof FlvError) error = r;
      else { pos = r; this.headerDone = true; }
    }
    if (!error) {
      const r = this.parseTags(buf, pos, tags);
      pos = r.pos;
      error = r.error;
    }
    if (error) {
      this.failed = error;
      this.chunks = [];
      this.pendingBytes = 0;
      return { tags, error };
    }
    const rest = buf.subarray(pos);
    this.chunks = rest.length ? [rest] : [];
    this.pendingBytes = rest.length;
    return { tags, error: null };
  }

  /** Ends the stream. A partial trailing tag is dropped and counted; an empty or headerless stream is an error. */
  end(): ParseResult {
    if (this.failed) return { tags: [], error: null };
    const left = this.pendingBytes;
    this.chunks = [];
    this.pendingBytes = 0;
    if (!this.headerDone) {
      this.failed = new FlvError(this.bytesIn === 0 ? 'TRUNCATED' : 'NOT_FLV', this.bytesIn === 0 ? 'Stream is empty.' : 'Stream ended inside the FLV header.');
      return { tags: [], error: this.failed };
    }
    // The PreviousTagSize after the last tag (4 bytes) is expected; anything beyond it is a cut tag.
    if (left > 4) this.anomalies.truncatedBytes += left;
    return { tags: [], error: null };
  }

  /** True once a fatal error was reported. */
  get error(): FlvError | null {
    return this.failed;
  }

  private parseTags(buf: Uint8Array, start: number, out: FlvTag[]): { pos: number; error: FlvError | null } {
    let pos = start;
    const len = buf.length;
    // Each step needs PreviousTagSize (4, never validated) + the 11-byte tag header.
    while (len - pos >= 15) {
      const type = buf[pos + 4]!;
      const size = (buf[pos + 5]! << 16) | (buf[pos + 6]! << 8) | buf[pos + 7]!;
      const total = 15 + size;
      if (len - pos < total) {
        this.needed = total;
        return { pos, error: null };
      }
      if (type !== TagType.Audio && type !== TagType.Video && type !== TagType.Script) {
        return { pos, error: new FlvError('UNKNOWN_TAG_TYPE', `Unknown FLV tag type ${type} at tag #${this.index + 1}.`) };
      }
      const timestamp = ((buf[pos + 8]! << 16) | (buf[pos + 9]! << 8) | buf[pos + 10]! | (buf[pos + 11]! << 24)) | 0;
      const data = buf.subarray(pos + 15, pos + total);
      const flag = detectFlag(type, data);
      if (typeof flag !== 'number') return { pos, error: flag };
      const tag: FlvTag = { type, flag, size, timestamp, index: ++this.index, data, nalus: null, dataHash: null };
      if (type === TagType.Video && (flag & TagFlag.Header) === 0) {
        tag.nalus = parseNalus(data);
        if (!tag.nalus) this.anomalies.badNalus++;
      } else if (type === TagType.Script) {
        try {
          tag.script = decodeAmf(data);
        } catch {
          tag.script = null;
          this.anomalies.badScripts++;
        }
      }
      out.push(tag);
      pos += total;
    }
    this.needed = 15;
    return { pos, error: null };
  }
}
