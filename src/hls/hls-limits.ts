// What one HLS capture may hold or take, derived from RecordMemoryBudgetMB and the playlist's target duration.
const MIB = 1024 * 1024;

/** RFC 8216 target durations outside this range are clamped: 0 polled in a tight loop, millions overflowed the timer. */
export const MIN_TARGET_MS = 500;
export const MAX_TARGET_MS = 30_000;

/** Segment bytes accepted per second of target duration (64 Mbit/s, far above any live quality). */
const SEGMENT_BYTES_PER_TARGET_SECOND = 8 * MIB;

export interface HlsLimits {
  /** The room's whole budget (RecordMemoryBudgetMB, at least 8 MiB). */
  budgetBytes: number;
  /** The largest init section (held in memory for every file's head): B/8, at most 8 MiB. */
  maxInitBytes: number;
  /** The largest box held whole (moof, sidx…; mdat payloads stream to the file): B/8, at most 16 MiB. */
  maxHeldBox: number;
}

export function hlsLimits(budgetMb: number): HlsLimits {
  const budgetBytes = Math.max(8, budgetMb) * MIB;
  return { budgetBytes, maxInitBytes: Math.min(8 * MIB, budgetBytes / 8), maxHeldBox: Math.min(16 * MIB, budgetBytes / 8) };
}

/** The target duration in ms, clamped to [MIN_TARGET_MS, MAX_TARGET_MS]; `fallback` when the playlist gave none. */
export function clampTargetMs(targetSeconds: number, fallback: number): number {
  if (!(targetSeconds > 0)) return fallback;
  return Math.min(MAX_TARGET_MS, Math.max(MIN_TARGET_MS, targetSeconds * 1000));
}

/** The largest segment accepted: half the budget or 8 MiB per target second, whichever is more (streamed to disk, not held). */
export function maxSegmentBytes(limits: HlsLimits, targetMs: number): number {
  return Math.max(limits.budgetBytes / 2, Math.ceil(targetMs / 1000) * SEGMENT_BYTES_PER_TARGET_SECOND);
}
