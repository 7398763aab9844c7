// Synchronous, chunked line scanner over a file descriptor, with byte offsets, so spilled data is read in small slices.
import { readSync } from 'node:fs';

const CHUNK = 64 * 1024;
/** The longest line read: a journal line is a webhook body (KBs); a longer run is damage (a lost newline, junk). */
export const MAX_LINE = 4 << 20;

/**
 * Visits complete lines in [from, to). `visit` returns false to stop before consuming that line.
 * Returns the offset of the first unconsumed byte: the stopping line, or a trailing partial line, or `to`.
 */
export function scanLines(
  fd: number,
  from: number,
  to: number,
  visit: (line: string, offset: number, end: number) => boolean | void,
  /** A run past MAX_LINE without a newline, [offset, end): skipped (never made one string), then reading goes on. */
  damaged?: (offset: number, end: number) => void,
): number {
  let pos = from;
  let carry = Buffer.alloc(0);
  let carryStart = from;
  /** Inside an over-long line: its start (bytes are dropped until its newline). */
  let longFrom = -1;
  while (pos < to) {
    const want = Math.min(CHUNK, to - pos);
    const chunk = Buffer.allocUnsafe(want);
    const got = readSync(fd, chunk, 0, want, pos);
    if (got <= 0) break;
    pos += got;
    const buf = carry.length ? Buffer.concat([carry, chunk.subarray(0, got)]) : chunk.subarray(0, got);
    let lineStart = 0;
    if (longFrom >= 0) {
      const nl = buf.indexOf(10);
      if (nl === -1) {
        carryStart += buf.length;
        carry = Buffer.alloc(0);
        continue;
      }
      damaged?.(longFrom, carryStart + nl + 1);
      longFrom = -1;
      lineStart = nl + 1;
    }
    for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10, lineStart)) {
      const offset = carryStart + lineStart;
      const end = carryStart + nl + 1;
      if (visit(buf.toString('utf8', lineStart, nl), offset, end) === false) return offset;
      lineStart = nl + 1;
    }
    carryStart += lineStart;
    if (buf.length - lineStart > MAX_LINE) {
      longFrom = carryStart;
      carryStart += buf.length - lineStart;
      carry = Buffer.alloc(0);
      continue;
    }
    // Copy so a large chunk is not kept alive by a small tail.
    carry = Buffer.from(buf.subarray(lineStart));
  }
  if (longFrom >= 0) damaged?.(longFrom, carryStart);
  return carryStart;
}
