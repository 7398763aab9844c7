// Writes a list of byte ranges at a file position, gathered (writev) where the file calls allow, resuming short writes.

/** The file calls a gathered write needs (a subset of FlvFileSystem). */
export interface GatherFs {
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): number;
  writevSync?(fd: number, buffers: readonly Uint8Array[], position: number): number;
}

/**
 * Writes `parts` in order from `position`; returns the bytes written (their total). A kernel may write less than
 * asked: the next call starts at the first byte not yet written, inside a part if need be. Errors propagate.
 */
export function writePartsAt(fs: GatherFs, fd: number, parts: readonly Uint8Array[], position: number): number {
  let total = 0;
  for (const p of parts) total += p.length;
  let done = 0;
  let i = 0;
  let off = 0;
  while (done < total) {
    let n = writeFrom(fs, fd, parts, i, off, position + done);
    done += n;
    while (n > 0 && i < parts.length) {
      const rest = parts[i]!.length - off;
      if (n < rest) {
        off += n;
        n = 0;
      } else {
        n -= rest;
        i++;
        off = 0;
      }
    }
  }
  return total;
}

/** One write call from byte `off` of part `i` on: gathered when more than one part is left. */
function writeFrom(fs: GatherFs, fd: number, parts: readonly Uint8Array[], i: number, off: number, position: number): number {
  const first = parts[i]!;
  if (i === parts.length - 1 || !fs.writevSync) return fs.writeSync(fd, first, off, first.length - off, position);
  const list = i === 0 && off === 0 ? parts : [first.subarray(off), ...parts.slice(i + 1)];
  return fs.writevSync(fd, list, position);
}
