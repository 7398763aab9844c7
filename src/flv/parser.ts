// Push parser for FLV byte streams: any chunk boundaries, zero-copy tag bodies, fatal problems as coded values.
import { decodeAmf } from './amf.js';
import { CODEC_ID, enhancedToLegacy, isEnhancedBody } from './codecs/video-format.js';
import { FlvError } from './errors.js';
import { type BodyAlloc, ParsedTag, ownBuffer } from './parsed-tag.js';
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

/**
 * Derives the flag set as brec does (key = frame type 1, header = packet type 0, end = 2), for the internal
 * video layout: codec id 7 (AVC) or 12 (HEVC); Enhanced FLV bodies are converted to it first (readTag).
 */
export function detectFlag(type: number, body: Uint8Array): number | FlvError {
  if (body.length <= 2) return TagFlag.None;
  if (type === TagType.Audio) {
    return body[0]! >> 4 === 10 && body[1] === 0 ? TagFlag.Header : TagFlag.None;
  }
  if (type === TagType.Video) {
    const codec = body[0]! & 0x0f;
    if (codec !== CODEC_ID.Avc && codec !== CODEC_ID.Hevc) {
      return new FlvError('UNSUPPORTED_CODEC', `Unsupported video codec id ${codec}; H.264 (7) and HEVC (12, or Enhanced FLV hvc1) are supported.`);
    }
    let flag = body[0] === (0x10 | codec) ? TagFlag.Keyframe : TagFlag.None;
    if (body[1] === 0) flag |= TagFlag.Header;
    else if (body[1] === 2) flag |= TagFlag.End;
    return flag;
  }
  return TagFlag.None;
}

/**
 * Consumed-bytes core for one tag: reads `PreviousTagSize + tag` starting at `buf[pos]`.
 * Returns the tag (it consumed `15 + tag.size` bytes), `null` when more data is needed, or an error.
 * The tag body is a plain Uint8Array view into `buf` (no copy).
 */
export function readTag(buf: Uint8Array, pos: number, index: number, maxSize = 0xffffff): FlvTag | FlvError | null {
  if (buf.length - pos < 15) return null;
  const type = buf[pos + 4]!;
  const size = (buf[pos + 5]! << 16) | (buf[pos + 6]! << 8) | buf[pos + 7]!;
  // Refused from its header alone, so an oversized tag is never buffered.
  if (size > maxSize) return new FlvError('TAG_TOO_LARGE', `Tag #${index} declares ${size} bytes, over the limit of ${maxSize}.`);
  if (buf.length - pos < 15 + size) return null;
  if (type !== TagType.Audio && type !== TagType.Video && type !== TagType.Script) {
    return new FlvError('UNKNOWN_TAG_TYPE', `Unknown FLV tag type ${type} at tag #${index}.`);
  }
  const timestamp = (buf[pos + 8]! << 16) | (buf[pos + 9]! << 8) | buf[pos + 10]! | (buf[pos + 11]! << 24);
  // A direct view: Buffer#subarray would go through the species constructor (measurably slower per tag).
  let data = new Uint8Array(buf.buffer, buf.byteOffset + pos + 15, size);
  let media = type === TagType.Video;
  if (media && isEnhancedBody(data)) {
    // Enhanced FLV: one copy into the legacy layout, so rules and writer see one model (size stays as read).
    const legacy = enhancedToLegacy(data);
    if (legacy instanceof FlvError) return legacy;
    if (legacy) data = legacy;
    else media = false; // Metadata and other packet types: kept as received, no NALU list
  }
  const flag = media || type !== TagType.Video ? detectFlag(type, data) : TagFlag.None;
  if (typeof flag !== 'number') return flag;
  const tag = new ParsedTag(type, flag, size, timestamp, index, data, media && (flag & TagFlag.Header) === 0);
  if (type === TagType.Script) {
    try {
      tag.script = decodeAmf(data);
    } catch {
      tag.script = null;
    }
  }
  return tag;
}

/**
 * Push parser. Contract:
 * - `push(chunk)` may be called with any chunk boundaries; it returns every tag completed by the chunk.
 * - Tag bodies are views into the pushed chunks: do not modify a chunk after pushing it, or call
 *   `detach(chunk.buffer)` first (only bytes of an incomplete trailing tag are still held).
 * - Only a tag that straddles chunks is copied, once, when its last byte arrives.
 * - After an error the parser stays failed; tags before the problem are still returned.
 */
export class FlvParser {
  readonly anomalies: ParserAnomalies = { truncatedBytes: 0, badNalus: 0, badScripts: 0 };
  /** Total bytes offered to the parser. */
  bytesIn = 0;
  /** Bytes consumed into the file header and complete tags (each with its leading PreviousTagSize). */
  bytesConsumed = 0;
  private parts: Uint8Array[] = [];
  private partsLen = 0;
  private headerDone = false;
  private index = 0;
  private failed: FlvError | null = null;
  /** Reused memory for held bytes once the caller detaches (live capture): no allocation per read. */
  // Plain Uint8Array: its subarray is a builtin, a Buffer's constructs a FastBuffer in JS (about twice the cost).
  private scratch = new Uint8Array(0);

  /**
   * `stripFillerOnCopy`: when a tag has to be copied (it was assembled in the scratch buffer, or the
   * caller's read buffer is about to be reused), AVC filler NALUs are left out of the copy. For recording,
   * where RemoveFillerData drops them before writing anyway; not for tools that export tags as read.
   */
  /** `alloc`: where copies of tags (and of units assembled from several chunks) go; an arena for streams. */
  constructor(private readonly options: { stripFillerOnCopy?: boolean; maxTagBytes?: number; alloc?: BodyAlloc } = {}) {
    this.maxTagBytes = options.maxTagBytes ?? 0xffffff;
    this.alloc = options.alloc ?? ownBuffer;
  }

  private readonly maxTagBytes: number;
  private readonly alloc: BodyAlloc;

  /** Bytes the parser holds between pushes: an incomplete tag and its reusable scratch memory. */
  get heldBytes(): number {
    return this.partsLen + this.scratch.length;
  }

  /** Offers the next bytes of the stream; returns every tag completed by them. */
  push(chunk: Uint8Array): ParseResult {
    if (this.failed) return { tags: [], error: this.failed };
    this.bytesIn += chunk.length;
    const tags: FlvTag[] = [];
    if (chunk.length === 0) return { tags, error: null };
    let buf = chunk;
    const held = this.parts.length === 1 ? this.parts[0]! : null;
    if (held && held.buffer === chunk.buffer && held.byteOffset + held.length === chunk.byteOffset) {
      // The chunk continues the held bytes in the same memory (reads into consecutive arena space): no copy.
      buf = new Uint8Array(chunk.buffer, held.byteOffset, held.length + chunk.length);
      this.parts = [];
      this.partsLen = 0;
    } else if (this.partsLen > 0) {
      this.parts.push(chunk);
      this.partsLen += chunk.length;
      const need = this.unitSize();
      if (need - 15 > this.maxTagBytes) {
        return this.fail(new FlvError('TAG_TOO_LARGE', `Tag #${this.index + 1} declares ${need - 15} bytes, over the limit of ${this.maxTagBytes}.`), tags);
      }
      if (this.partsLen < need) return { tags, error: null };
      // The held bytes are less than one unit, so the unit ends inside this chunk: copy just that unit.
      const inScratch = this.parts[0]!.buffer === this.scratch.buffer;
      const unit = this.take(need, inScratch);
      const from = tags.length;
      const error = this.parseRange(unit, tags, true);
      // A unit assembled in the scratch buffer is copied out now: the scratch is reused for the next one.
      if (inScratch) for (let i = from; i < tags.length; i++) this.copyOut(tags[i]!);
      if (error) return this.fail(error, tags);
      buf = this.parts[0] ?? new Uint8Array(0);
      this.parts = [];
      this.partsLen = 0;
    }
    const error = this.parseRange(buf, tags, false);
    if (error) return this.fail(error, tags);
    return { tags, error: null };
  }

  /** Ends the stream. A partial trailing tag is dropped and counted; an empty or headerless stream is an error. */
  end(): ParseResult {
    if (this.failed) return { tags: [], error: null };
    const left = this.partsLen;
    this.parts = [];
    this.partsLen = 0;
    if (!this.headerDone) {
      this.failed = new FlvError(this.bytesIn === 0 ? 'TRUNCATED' : 'NOT_FLV', this.bytesIn === 0 ? 'Stream is empty.' : 'Stream ended inside the FLV header.');
      return { tags: [], error: this.failed };
    }
    // The PreviousTagSize after the last tag (4 bytes) is expected; anything beyond it is a cut tag.
    if (left > 4) this.anomalies.truncatedBytes += left;
    return { tags: [], error: null };
  }

  /**
   * Accounts for `count` whole units (`bytes` with their PreviousTagSize fields) that src/flv/fast handled
   * without this parser, between two pushes: tag numbers and byte counts stay those of the whole stream.
   */
  skipUnits(count: number, bytes: number): void {
    this.index += count;
    this.bytesIn += bytes;
    this.bytesConsumed += bytes;
  }

  /** Views of the bytes held for an incomplete unit (they must stay valid until the next push). */
  get heldViews(): readonly Uint8Array[] {
    return this.parts;
  }

  /** The fatal error, once one was reported. */
  get error(): FlvError | null {
    return this.failed;
  }

  /** Copies any held bytes that live in `buffer` into the parser's scratch, so the caller may reuse that memory. */
  detach(buffer: ArrayBufferLike): void {
    if (!this.parts.some((p) => p.buffer === buffer)) return;
    const total = this.partsLen;
    if (this.scratch.length < total) {
      const next = new Uint8Array(Math.max(total, this.scratch.length * 2, 64 * 1024));
      let at = 0;
      for (const p of this.parts) {
        next.set(p, at);
        at += p.length;
      }
      this.scratch = next;
    } else {
      // parts[0] may already be the scratch's own prefix; set() copes with the overlap.
      let at = 0;
      for (const p of this.parts) {
        this.scratch.set(p, at);
        at += p.length;
      }
    }
    this.parts = [this.scratch.subarray(0, total)];
  }

  /** Gives a tag that views parser-owned memory its own copy. */
  private copyOut(t: FlvTag): void {
    if (t instanceof ParsedTag) t.detachCopy(this.options.stripFillerOnCopy === true, this.alloc);
    else if (t.data) t.data = new Uint8Array(t.data);
  }

  private fail(error: FlvError, tags: FlvTag[]): ParseResult {
    this.failed = error;
    this.parts = [];
    this.partsLen = 0;
    return { tags, error };
  }

  /** Size of the next unit (file header, or PreviousTagSize + tag) as far as the held bytes tell. */
  private unitSize(): number {
    if (!this.headerDone) return 9;
    if (this.partsLen < 15) return 15;
    return 15 + ((this.byteAt(5) << 16) | (this.byteAt(6) << 8) | this.byteAt(7));
  }

  private byteAt(i: number): number {
    for (const p of this.parts) {
      if (i < p.length) return p[i]!;
      i -= p.length;
    }
    return 0;
  }

  /**
   * Removes the first `n` held bytes as one contiguous unit; the rest stays held as views. `inScratch`: the
   * held prefix is already at the start of the scratch buffer, so the unit is assembled there (no allocation).
   */
  private take(n: number, inScratch: boolean): Uint8Array {
    let out: Uint8Array;
    let filled = 0;
    let i = 0;
    if (inScratch) {
      if (this.scratch.length < n) {
        const next = new Uint8Array(Math.max(n, this.scratch.length * 2));
        next.set(this.parts[0]!);
        this.scratch = next;
      }
      out = this.scratch.subarray(0, n);
      filled = this.parts[0]!.length;
      i = 1;
    } else {
      out = this.alloc(n);
    }
    while (filled < n) {
      const p = this.parts[i]!;
      const use = Math.min(p.length, n - filled);
      out.set(use === p.length ? p : p.subarray(0, use), filled);
      filled += use;
      if (use < p.length) {
        this.parts[i] = p.subarray(use);
        break;
      }
      i++;
    }
    this.parts = this.parts.slice(i);
    this.partsLen -= n;
    return out;
  }

  /** Parses whole units from `buf`; keeps an incomplete tail as a view (`single`: buf is exactly one unit). */
  private parseRange(buf: Uint8Array, out: FlvTag[], single: boolean): FlvError | null {
    let pos = 0;
    if (!this.headerDone) {
      const r = parseFileHeader(buf);
      if (r instanceof FlvError) return r;
      if (r === 0) return this.hold(buf);
      this.headerDone = true;
      this.bytesConsumed += 9;
      pos = 9;
      if (single) return null;
    }
    const len = buf.length;
    while (len - pos >= 15) {
      const t = readTag(buf, pos, this.index + 1, this.maxTagBytes);
      if (t === null) break;
      if (t instanceof FlvError) return t;
      this.index++;
      if (t.type === TagType.Script ? t.script === null : t instanceof ParsedTag && t.type === TagType.Video && (t.flag & TagFlag.Header) === 0 && !t.nalusOk) {
        if (t.type === TagType.Video) this.anomalies.badNalus++;
        else this.anomalies.badScripts++;
      }
      out.push(t);
      pos += 15 + t.size;
      this.bytesConsumed += 15 + t.size;
    }
    return pos < len ? this.hold(buf.subarray(pos)) : null;
  }

  private hold(rest: Uint8Array): null {
    this.parts = [rest];
    this.partsLen = rest.length;
    return null;
  }
}
