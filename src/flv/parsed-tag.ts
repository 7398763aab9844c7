// The tag object the parser creates: a NALU list built only when someone reads it.
import type { AmfValue } from './amf.js';
import { type LazyNalus, type NaluSummary, parseNalus, scanNalus, summarizeList } from './nalu.js';
import type { FlvTag, Nalu, TagExtra, TagType } from './tag.js';

const scratch: NaluSummary = { ok: false, bodySize: 0, filler: false, tiles: false };

/**
 * Why lazy: most video tags are only written back; building a NALU array and objects for each of them was
 * the largest source of garbage in the engine (and of young-generation growth). The repair rules and the
 * writer use allocation-free summaries; reading `nalus` (XML export, tests) builds and caches the list.
 * `nalus` is an accessor: copy tags with cloneTag(), not object spread (which would drop it).
 */
export class ParsedTag implements FlvTag, LazyNalus {
  dataHash: string | null = null;
  script: AmfValue[] | null | undefined = undefined;
  extra: TagExtra | undefined = undefined;
  /** undefined = not built yet (AVC data only); null = none or unparsable. */
  private list: Nalu[] | null | undefined;
  /** The scan done at parse time, valid while the list is not built (kept as plain fields: no allocation). */
  private readonly scanOk: boolean = false;
  private readonly scanSize: number = 0;
  private readonly scanFiller: boolean = false;
  private readonly scanTiles: boolean = false;

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

  /** False when this AVC data tag's NALU list is unparsable (brec then keeps no list). */
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

  naluSummary(out: NaluSummary): NaluSummary {
    if (this.list !== undefined) return summarizeList(this.list, this.data, out);
    out.ok = this.scanOk;
    out.bodySize = this.scanSize;
    out.filler = this.scanFiller;
    out.tiles = this.scanTiles;
    return out;
  }
}
