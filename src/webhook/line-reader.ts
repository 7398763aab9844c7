// Synchronous, chunked line scanner over a file descriptor, with byte offsets, so spilled data is read in small slices.
import { readSync } from 'node:fs';

const CHUNK = 64 * 1024;

/**
 * Visits complete lines in [from, to). `visit` returns false to stop before consuming that line.
 * Returns the offset of the first unconsumed byte: the stopping line, or a trailing partial line, or `to`.
 */
export function scanLines(
  fd: number,
  from: number,
  to: number,
  visit: (line: string, offset: number, end: number) => boolean | void,
): number {
  let pos = from;
  let carry = Buffer.alloc(0);
  let carryStart = from;
  while (pos < to) {
    const want = Math.min(CHUNK, to - pos);
    const chunk = Buffer.allocUnsafe(want);
    const got = readSync(fd, chunk, 0, want, pos);
    if (got <= 0) break;
    pos += got;
    const buf = carry.length ? Buffer.concat([carry, chunk.subarray(0, got)]) : chunk.subarray(0, got);
    let lineStart = 0;
    for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10, lineStart)) {
      const offset = carryStart + lineStart;
      const end = carryStart + nl + 1;
      if (visit(buf.toString('utf8', lineStart, nl), offset, end) === false) return offset;
      lineStart = nl + 1;
    }
    carryStart += lineStart;
    // Copy so a large chunk is not kept alive by a small tail.
    carry = Buffer.from(buf.subarray(lineStart));
  }
  return carryStart;
}
