// One track's sample tables built as samples arrive (run-length coded where MP4 allows), spooled, never held whole.
import type { Spool, SpoolTable } from './spool.js';

/** A (count, value) run-length table: stts (durations) and ctts (composition offsets). */
export class RunTable {
  entries = 0;
  private value = 0;
  private length = 0;

  constructor(readonly table: SpoolTable) {}

  push(v: number): void {
    if (this.length > 0 && v === this.value) {
      this.length++;
      return;
    }
    this.close();
    this.value = v;
    this.length = 1;
  }

  /** Writes the open run (when the last sample is in). */
  close(): void {
    if (!this.length) return;
    this.table.u32(this.length);
    this.table.u32(this.value);
    this.entries++;
    this.length = 0;
  }
}

export class TrackTables {
  samples = 0;
  firstDts = 0;
  lastDts = 0;
  /** The last sample's duration: the delta before it (a single sample lasts one tick). */
  lastDelta = 1;
  readonly stsz: SpoolTable;
  readonly stts: RunTable;
  readonly ctts: RunTable;
  /** Whether any composition offset is not zero (no ctts is written otherwise). */
  anyCto = false;
  readonly stss: SpoolTable;
  syncSamples = 0;
  readonly stsc: SpoolTable;
  stscEntries = 0;
  /** Chunk offsets as 64-bit words, relative to a base the muxer adds when it writes stco/co64. */
  readonly offsets: SpoolTable;
  chunks = 0;
  /** Where the first and the last chunk's first sample were (an offset as given to add()) and their sizes: the verify step compares their bytes. */
  readonly ends = { first: { offset: 0, size: 0 }, last: { offset: 0, size: 0 } };
  private chunkSamples = 0;
  private lastStsc = -1;
  /** The sample description (1-based stsd entry) of the samples added now, and of the open chunk. */
  description = 1;
  private chunkDescription = 1;
  private lastStscDescription = 1;
  private finished = false;

  /** `keepSync`: a video track lists its sync samples (stss); audio samples are all sync. */
  constructor(spool: Spool, private readonly keepSync: boolean) {
    this.stsz = spool.table();
    this.stts = new RunTable(spool.table());
    this.ctts = new RunTable(spool.table());
    this.stss = spool.table();
    this.stsc = spool.table();
    this.offsets = spool.table();
  }

  /** A sample; `newChunk` when it does not follow the previous one of this track in the media. */
  add(dts: number, cto: number, sync: boolean, size: number, newChunk: boolean, offset: number): void {
    if (this.samples === 0) this.firstDts = dts;
    else {
      // A sample's duration is known when the next one arrives.
      this.lastDelta = dts - this.lastDts;
      this.stts.push(this.lastDelta);
    }
    this.lastDts = dts;
    this.ctts.push(cto);
    if (cto !== 0) this.anyCto = true;
    this.samples++;
    if (sync && this.keepSync) {
      this.stss.u32(this.samples);
      this.syncSamples++;
    }
    this.stsz.u32(size);
    if (newChunk || this.chunks === 0 || this.description !== this.chunkDescription) {
      this.closeChunk();
      this.chunkDescription = this.description;
      this.offsets.u64(offset);
      if (this.chunks === 0) this.ends.first = { offset, size };
      this.ends.last.offset = offset;
      this.ends.last.size = size;
      this.chunks++;
    }
    this.chunkSamples++;
  }

  /** Closes the open runs once the last sample is in; the tables are complete after it. */
  finish(): void {
    if (this.finished || this.samples === 0) return;
    this.finished = true;
    this.stts.push(this.lastDelta);
    this.stts.close();
    this.ctts.close();
    this.closeChunk();
  }

  /** Decode ticks from the first decode time to the end of the last sample. */
  get duration(): number {
    return this.lastDts - this.firstDts + this.lastDelta;
  }

  private closeChunk(): void {
    if (!this.chunkSamples) return;
    if (this.chunkSamples !== this.lastStsc || this.chunkDescription !== this.lastStscDescription) {
      this.stsc.u32(this.chunks);
      this.stsc.u32(this.chunkSamples);
      this.stsc.u32(this.chunkDescription);
      this.stscEntries++;
      this.lastStsc = this.chunkSamples;
      this.lastStscDescription = this.chunkDescription;
    }
    this.chunkSamples = 0;
  }
}
