// Where every byte of a remux's source went: into a sample of the MP4, into a structure the demuxer understood, or
// skipped (with its offset and reason). The remux job deletes a source only when nothing was skipped.

export interface SkippedRange {
  /** File offset of the first skipped byte (for bytes spread over interleaved packets: of the first packet). */
  offset: number;
  bytes: number;
  reason: string;
}

export interface LedgerSummary {
  /** The source's size: always sampleBytes + structureBytes + skippedBytes. */
  size: number;
  sampleBytes: number;
  structureBytes: number;
  skippedBytes: number;
  /** How many skipped ranges there were (the first MAX_RANGES are listed). */
  skippedRanges: number;
  skipped: SkippedRange[];
}

/** Ranges listed in a report: enough to find the damage, bounded however damaged the file is. */
export const MAX_RANGES = 32;

export class ByteLedger {
  sampleBytes = 0;
  structureBytes = 0;
  skippedBytes = 0;
  skippedRanges = 0;
  readonly skipped: SkippedRange[] = [];
  private last: SkippedRange | null = null;

  sample(n: number): void {
    if (n > 0) this.sampleBytes += n;
  }

  structure(n: number): void {
    if (n > 0) this.structureBytes += n;
  }

  /** Skipped bytes; a range that continues the previous one with the same reason extends it. */
  skip(offset: number, bytes: number, reason: string): void {
    if (bytes <= 0) return;
    this.skippedBytes += bytes;
    const l = this.last;
    if (l && l.reason === reason && l.offset + l.bytes === offset) {
      l.bytes += bytes;
      return;
    }
    this.skippedRanges++;
    const r = { offset, bytes, reason };
    this.last = r;
    if (this.skipped.length < MAX_RANGES) this.skipped.push(r);
    else this.last = { ...r };
  }

  get accounted(): number {
    return this.sampleBytes + this.structureBytes + this.skippedBytes;
  }

  /**
   * Closes the books against the file's size: bytes no demuxer step classified (a bug, or a read that ended early)
   * are skipped as `unaccounted`, so that a gap in the accounting can never let a source be deleted.
   */
  finish(size: number): LedgerSummary {
    const missing = size - this.accounted;
    if (missing > 0) this.skip(size - missing, missing, 'unaccounted');
    if (missing < 0) throw new Error(`the remux counted ${-missing} bytes more than ${size}: an accounting error`);
    return {
      size, sampleBytes: this.sampleBytes, structureBytes: this.structureBytes, skippedBytes: this.skippedBytes,
      skippedRanges: this.skippedRanges, skipped: this.skipped.map((r) => ({ ...r })),
    };
  }
}

/** One line for a job's warning: how much was skipped, and where. */
export function describeSkipped(s: LedgerSummary): string {
  const list = s.skipped.slice(0, 5).map((r) => `${r.bytes} B at ${r.offset} (${r.reason})`).join(', ');
  const more = s.skippedRanges > 5 ? `, and ${s.skippedRanges - 5} more` : '';
  return `${s.skippedBytes} of ${s.size} bytes of the source were not copied (${s.skippedRanges} range${s.skippedRanges === 1 ? '' : 's'}: ${list}${more})`;
}
