// Bytes a recorder has written: file sizes, and the media part of them (both recorders, same way).
import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Sizes of every file under `dir`, and of what follows each FLV file's header and first script tag. */
export interface OutputSizes {
  bytes: number;
  /** `bytes` less each FLV file's 13-byte header and leading script tag (its onMetaData). */
  mediaBytes: number;
}

/**
 * Why media bytes: liverec writes brec's onMetaData, which reserves a keyframe index of 6300 entries (about
 * 113 KB per file); ffmpeg's is a few hundred bytes. At 0.39 Mbps over a short phase that alone is ~3 % of the
 * output, which made "bytes out / bytes in" differ between recorders that kept exactly the same stream.
 */
export function outputSizes(dir: string): OutputSizes {
  const sum: OutputSizes = { bytes: 0, mediaBytes: 0 };
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    try {
      if (e.isDirectory()) {
        const s = outputSizes(p);
        sum.bytes += s.bytes;
        sum.mediaBytes += s.mediaBytes;
      } else if (e.isFile()) {
        const size = statSync(p).size;
        sum.bytes += size;
        sum.mediaBytes += size - flvLeadBytes(p, size);
      }
    } catch {
      // A file closed and renamed between readdir and stat: counted at the next read.
    }
  }
  return sum;
}

export function outputBytes(dir: string): number {
  return outputSizes(dir).bytes;
}

/** The FLV header, plus the first tag and its back-pointer when that tag is a script tag; 0 for other files. */
export function flvLeadBytes(path: string, size: number): number {
  if (!path.endsWith('.flv') || size < 13) return 0;
  const head = Buffer.alloc(24);
  const fd = openSync(path, 'r');
  let n: number;
  try {
    n = readSync(fd, head, 0, 24, 0);
  } finally {
    closeSync(fd);
  }
  if (n < 13 || head.toString('latin1', 0, 3) !== 'FLV') return 0;
  const headerBytes = head.readUInt32BE(5) + 4;
  if (n < 24 || headerBytes !== 13 || (head[13]! & 0x1f) !== 18) return Math.min(size, headerBytes);
  const tagBytes = 11 + head.readUIntBE(14, 3) + 4;
  return Math.min(size, headerBytes + tagBytes);
}

/** Bytes in and out over a recorder's whole phase: out / in compares what the two recorders kept of the same streams. */
export interface PhaseTotals {
  /** Bytes the simulator served to this recorder's connections during its phase. */
  inBytes: number;
  /** Bytes in the recorder's output files once it stopped. */
  outBytes: number;
  /** `outBytes` without each file's FLV header and onMetaData tag (see outputSizes). */
  mediaOutBytes: number;
  /** mediaOutBytes / inBytes: what the comparison flag checks. */
  outOverIn: number;
}

export function phaseTotals(inBytes: number, out: OutputSizes): PhaseTotals {
  return { inBytes, outBytes: out.bytes, mediaOutBytes: out.mediaBytes, outOverIn: out.mediaBytes / Math.max(1, inBytes) };
}
