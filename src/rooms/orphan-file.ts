// Closes a file whose worker died mid-write: walks tag headers, cuts a torn trailing tag, reports size and duration.
import { closeSync, fstatSync, ftruncateSync, openSync, readSync } from 'node:fs';

export interface FinalizedFile {
  size: number;
  /** Seconds, from the last audio/video tag's timestamp. */
  duration: number;
  truncatedBytes: number;
}

/**
 * Makes an FLV file end on a tag boundary. Only headers are read (bodies are skipped by offset), so even
 * hours of recording take milliseconds. Returns null when the file is missing or not FLV.
 */
export function finalizeOrphanFlv(path: string): FinalizedFile | null {
  return withOpenFile(path, (fd, size) => {
    const head = Buffer.alloc(13);
    if (readSync(fd, head, 0, 13, 0) < 13 || head.toString('latin1', 0, 3) !== 'FLV') return null;
    const tag = Buffer.alloc(11);
    let pos = 13;
    let lastTs = 0;
    while (pos + 11 <= size && readSync(fd, tag, 0, 11, pos) === 11) {
      const type = tag[0]!;
      const end = pos + 11 + tag.readUIntBE(1, 3) + 4;
      if (end > size || (type !== 8 && type !== 9 && type !== 18)) break;
      if (type !== 18) lastTs = (tag.readUIntBE(4, 3) | (tag[7]! << 24)) | 0;
      pos = end;
    }
    if (pos < size) ftruncateSync(fd, pos);
    return { size: pos, duration: Math.max(0, lastTs) / 1000, truncatedBytes: size - pos };
  });
}

/** Runs `fn` on the file opened for update (closed afterwards); null when it cannot be opened. */
export function withOpenFile<T>(path: string, fn: (fd: number, size: number) => T | null): T | null {
  let fd: number;
  try {
    fd = openSync(path, 'r+');
  } catch {
    return null;
  }
  try {
    return fn(fd, fstatSync(fd).size);
  } finally {
    closeSync(fd);
  }
}
