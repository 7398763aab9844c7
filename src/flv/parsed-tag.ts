// The tag object the parser creates: a NALU list built only when someone reads it.
import type { AmfValue } from './amf.js';
import { fillerType, hevcNalus, nalType } from './codecs/nal.js';
import { type LazyNalus, type NaluSummary, parseNalus, scanNalus, summarizeList } from './nalu.js';
import type { FlvTag, Nalu, TagExtra, TagType } from './tag.js';

/** Where copied tag bodies live: their own ArrayBuffer by default, or an arena (tag-arena.ts). */
export type BodyAlloc = (n: number) => Uint8Array;
export const ownBuffer: BodyAlloc = (n) => new Uint8Array(n);

const scratch: NaluSummary = { ok: false, bodySize: 0, filler: false, tiles: false };

/**
 * Why lazy: most video tags are only written back; building a NALU array and objects for each of them was
 * the largest source of garbage in the engine (and of young-generation growth). The repair rules and the
 * writer use allocation-free summaries; reading `nalus` (XML export, tests) builds and caches the list.
 * `nalus` is an accessor: copy tags with cloneTag(), not object spread (which would drop it).
 */
export class ParsedTag implements FlvTag, LazyNalus {
  dataHash: string | null = null;
  hashHi: number | undefined = undefined;
  hashLo: number | undefined = undefined;
  script: AmfValue[] | null | undefined = undefined;
  extra: TagExtra | undefined = undefined;
  /** undefined = not built yet (video data only); null = none or unparsable. */
  private list: Nalu[] | null | undefined;
  /** The scan done at parse time, valid while the list is not built (kept as plain fields: no allocation). */
  private scanOk = false;
  private scanSize = 0;
  private scanFiller = false;
  private scanTiles = false;

  constructor(
    public type: TagType,
    public flag: number,
    public size: number,
    public timestamp: number,
    public index: number,
    public data: Uint8Array | null,
    avcData: boolean,
  ) {
    this.list = avcData ? undefined : null;
    if (avcData && data) {
      const r = scanNalus(data, scratch);
      this.scanOk = r.ok;
      this.scanSize = r.bodySize;
      this.scanFiller = r.filler;
      this.scanTiles = r.tiles;
    }
  }

  /** False when this video data tag's NALU list is unparsable (brec then keeps no list). */
  get nalusOk(): boolean {
    return this.list === undefined ? this.scanOk : this.list !== null;
  }

  get nalus(): Nalu[] | null {
    if (this.list === undefined) this.list = this.data ? parseNalus(this.data) : null;
    return this.list;
  }

  set nalus(v: Nalu[] | null) {
    this.list = v;
  }

  /**
   * Replaces the body with a private copy (its bytes live in a buffer that is about to be reused). With
   * `stripFiller`, a frame whose NALUs tile the body loses its filler NALUs on the way: RemoveFillerData would drop them
   * before writing anyway, and on padded CDN streams filler is most of the bytes, so copying it is waste.
   * The duplicate fingerprint skips filler, so it is the same before and after.
   */
  detachCopy(stripFiller: boolean, alloc: BodyAlloc = ownBuffer): void {
    const data = this.data;
    if (!data) return;
    if (!stripFiller || this.list !== undefined || !this.scanOk || !this.scanFiller || !this.scanTiles) {
      const copy = alloc(data.length);
      copy.set(data);
      this.data = copy;
      return;
    }
    const out = alloc(this.scanSize - fillerBytes(data));
    out.set(data.subarray(0, 5));
    const hevc = hevcNalus(data);
    const filler = fillerType(hevc);
    let w = 5;
    for (let pos = 5; pos + 5 <= data.length;) {
      const end = pos + 4 + (((data[pos]! << 24) | (data[pos + 1]! << 16) | (data[pos + 2]! << 8) | data[pos + 3]!) >>> 0);
      if (nalType(hevc, data[pos + 4]!) !== filler) {
        out.set(data.subarray(pos, end), w);
        w += end - pos;
      }
      pos = end;
    }
    this.data = out;
    this.scanSize = out.length;
    this.scanFiller = false;
  }

  naluSummary(out: NaluSummary): NaluSummary {
    if (this.list !== undefined) return summarizeList(this.list, this.data, out);
    out.ok = this.scanOk;
    out.bodySize = this.scanSize;
    out.filler = this.scanFiller;
    out.tiles = this.scanTiles;
    return out;
  }
}

/** Bytes taken by filler NALUs (length fields included) in a body whose NALUs tile it. */
function fillerBytes(data: Uint8Array): number {
  let n = 0;
  const hevc = hevcNalus(data);
  const filler = fillerType(hevc);
  for (let pos = 5; pos + 5 <= data.length;) {
    const len = 4 + (((data[pos]! << 24) | (data[pos + 1]! << 16) | (data[pos + 2]! << 8) | data[pos + 3]!) >>> 0);
    if (nalType(hevc, data[pos + 4]!) === filler) n += len;
    pos += len;
  }
  return n;
}
