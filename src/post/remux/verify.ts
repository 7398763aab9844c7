// Whether a remuxed MP4 holds what was read from its source: same tracks, sample counts and durations.
import type { Mp4Summary } from './mp4-summary.js';
import type { RemuxReport } from './remux.js';

/** A description of the first difference, or null when the MP4 matches. */
export function verifyRemux(report: RemuxReport, written: Mp4Summary | null): string | null {
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
