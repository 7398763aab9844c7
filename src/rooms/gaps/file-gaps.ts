// The gaps of a session's files: collected while a file is open, reported with its FileClosed and in a sidecar.
import { writeFileSync } from 'node:fs';
import type { FileGap, GapReason } from '../../events/types.js';
import type { SessionGap } from '../protocol.js';

/** Gaps shorter than this are rounding, not missing media (one audio frame is ~21 ms). */
const MIN_GAP_MS = 1;

/**
 * Which report names a hole best when two describe it: the reconnect (or the HLS segment) is the cause, the
 * timestamp jump only what it left in the timeline.
 */
const RANK: Record<GapReason, number> = { reconnect: 2, 'hls-segment': 1, 'timestamp-jump': 0 };

const overlaps = (a: FileGap, start: number, duration: number): boolean =>
  start < a.StartMs + a.DurationMs && a.StartMs < start + duration;

export class FileGaps {
  /** The open file's gaps, in file order. */
  private current: FileGap[] = [];
  private currentPath = '';
  /** Every gap of the session so far (the room resource shows them). */
  readonly session: SessionGap[] = [];

  /** A new file was opened: its gaps start empty. */
  opened(relativePath: string): void {
    this.current = [];
    this.currentPath = relativePath;
  }

  /**
   * Records a gap on the open file; returns false (nothing recorded) for a zero-length one. One hole is one gap: a
   * report overlapping a gap already recorded (a reconnect and the timestamp jump it leaves) is merged into it, never
   * added, and the merged gap is no longer than the longer of the two reports.
   */
  add(startMs: number, durationMs: number, reason: GapReason): boolean {
    const d = Math.round(durationMs);
    if (d < MIN_GAP_MS) return false;
    const start = Math.max(0, Math.round(startMs));
    const i = this.current.findIndex((g) => overlaps(g, start, d));
    if (i >= 0) {
      const old = this.current[i]!;
      const merged: FileGap = {
        StartMs: Math.min(old.StartMs, start), DurationMs: Math.max(old.DurationMs, d),
        Reason: RANK[reason] > RANK[old.Reason] ? reason : old.Reason,
      };
      this.current[i] = merged;
      const j = this.session.findIndex((g) => g.RelativePath === this.currentPath && g.StartMs === old.StartMs && g.DurationMs === old.DurationMs && g.Reason === old.Reason);
      if (j >= 0) this.session[j] = { ...merged, RelativePath: this.currentPath };
      return true;
    }
    const gap: FileGap = { StartMs: start, DurationMs: d, Reason: reason };
    this.current.push(gap);
    this.session.push({ ...gap, RelativePath: this.currentPath });
    return true;
  }

  /** The closing file's gaps (the list is handed over and a new one begins). */
  take(): FileGap[] {
    const out = this.current;
    this.current = [];
    return out;
  }
}

/** `<file>.gaps.json`: written only when the file has gaps, so its absence means "no gap". */
export function writeGapSidecar(path: string, relativePath: string, gaps: readonly FileGap[]): string | null {
  if (gaps.length === 0) return null;
  const sidecar = `${path}.gaps.json`;
  const body = { File: relativePath, Gaps: gaps, TotalMs: gaps.reduce((n, g) => n + g.DurationMs, 0) };
  writeFileSync(sidecar, `${JSON.stringify(body, null, 2)}\n`);
  return sidecar;
}
