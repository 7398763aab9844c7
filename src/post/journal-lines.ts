// Reads a journal file as a stream of lines in fixed blocks (never one string): lines past a length bound, and a
// tail a read error cut off, are handed back as damaged bytes instead of ending the read.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const BLOCK = 1 << 20;
/** The longest line read: a job's line is a few KB; anything longer is damage (a lost newline, binary junk). */
export const MAX_LINE = 4 << 20;

export interface LineVisitor {
  /** A line's bytes, buf[start, end) without its newline (a view valid during the call), at file offset `offset`. */
  line(buf: Buffer, start: number, end: number, offset: number): void;
  /** Bytes that are no line: an over-long run (offset, length and its first bytes), or the unreadable rest of the file. */
  damaged(offset: number, bytes: number, head: Buffer, reason: 'too-long' | 'unreadable'): void;
}

/** Visits every line of `path`; returns the bytes read. */
export function readLines(path: string, visit: LineVisitor): number {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.allocUnsafe(BLOCK + MAX_LINE);
    let have = 0;
    /** File offset of buf[0]. */
    let base = 0;
    /** Inside an over-long line: skipping to its end (its offset, bytes so far). */
    let long: { at: number; bytes: number; head: Buffer } | null = null;
    let pos = 0;
    while (pos < size) {
      let got: number;
      try {
        got = readSync(fd, buf, have, Math.min(BLOCK, size - pos), pos);
      } catch {
        got = -1;
      }
      if (got <= 0) {
        visit.damaged(base, size - base, Buffer.alloc(0), 'unreadable');
        return pos;
      }
      pos += got;
      have += got;
      let start = 0;
      const view = buf.subarray(0, have);
      for (let nl = view.indexOf(10, 0); nl !== -1; nl = view.indexOf(10, start)) {
        if (long) {
          visit.damaged(long.at, long.bytes + nl + 1, long.head, 'too-long');
          long = null;
        } else if (nl > start) visit.line(buf, start, nl, base + start);
        start = nl + 1;
      }
      if (long) {
        long.bytes += have - start;
        have = 0;
        base = pos;
        continue;
      }
      if (have - start > MAX_LINE) {
        long = { at: base + start, bytes: have - start, head: Buffer.from(buf.subarray(start, start + 256)) };
        have = 0;
        base = pos;
        continue;
      }
      buf.copy(buf, 0, start, have);
      have -= start;
      base += start;
    }
    if (long) visit.damaged(long.at, long.bytes, long.head, 'too-long');
    else if (have > 0) visit.line(buf, 0, have, base);
    return pos;
  } finally {
    closeSync(fd);
  }
}
