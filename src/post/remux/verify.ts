// Whether a remuxed MP4 holds what was read from its source: same tracks, sample counts, durations and media size,
// and the bytes of each track's first sample and of its last chunk's first sample where the MP4's index points.
import { closeSync, openSync, readSync } from 'node:fs';
import type { Mp4Summary } from './mp4-summary.js';
import type { RemuxReport } from './remux.js';

/** A description of the first difference, or null when the MP4 matches. */
export function verifyRemux(report: Omit<RemuxReport, 'ledger'>, written: Mp4Summary | null): string | null {
  if (!written) return 'the MP4 cannot be read back';
  if (!written.faststart) return 'the moov is not before the media';
  if (written.mdatBytes !== report.mediaBytes) return `the mdat holds ${written.mdatBytes} bytes, ${report.mediaBytes} were written`;
  if (written.tracks.length !== report.tracks.length) return `${written.tracks.length} tracks written, ${report.tracks.length} read`;
  for (const [i, t] of report.tracks.entries()) {
    const w = written.tracks[i]!;
    if (w.handler !== t.handler) return `track ${i + 1} is ${w.handler}, expected ${t.handler}`;
    if (w.samples !== t.samples) return `track ${i + 1} has ${w.samples} samples, ${t.samples} read`;
    if (Math.abs(w.duration - t.duration) > 0.001) return `track ${i + 1} lasts ${w.duration} s, ${t.duration} s read`;
  }
  return null;
}

function bytesAt(fd: number, at: number, size: number): Buffer {
  const b = Buffer.alloc(size);
  let done = 0;
  while (done < size) {
    const got = readSync(fd, b, done, size - done, at + done);
    if (got <= 0) break;
    done += got;
  }
  return b.subarray(0, done);
}

/**
 * Compares the samples the report names (verbatim samples: FLV, fMP4) in the source with the bytes at the MP4's
 * chunk offsets: a handful of small reads that catch an index pointing off its media, which counts cannot.
 */
export function verifySamples(report: Omit<RemuxReport, 'ledger'>, written: Mp4Summary, output: string): string | null {
  const src = openSync(report.input, 'r');
  const out = openSync(output, 'r');
  try {
    for (const [i, t] of report.tracks.entries()) {
      const offsets = written.tracks[i]?.chunkOffsets;
      if (t.probes.length === 0) continue;
      if (!offsets) return `track ${i + 1} has no chunk offsets`;
      for (const [k, p] of t.probes.entries()) {
        const at = k === 0 ? offsets.first : offsets.last;
        if (!bytesAt(src, p.at, Math.min(p.size, 4096)).equals(bytesAt(out, at, Math.min(p.size, 4096)))) {
          return `track ${i + 1}: the ${k === 0 ? 'first' : 'last'} chunk's first sample differs from the source`;
        }
      }
    }
    return null;
  } finally {
    closeSync(src);
    closeSync(out);
  }
}
