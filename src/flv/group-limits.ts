// Caps on what one live capture may hold in memory: group size/duration/tag count and the largest tag accepted.

/** Limits of an open group. A group that reaches one ends there, even without a keyframe. */
export interface GroupLimits {
  /** Body bytes plus PER_TAG_COST per tag. */
  maxBytes: number;
  maxTags: number;
  /** Timestamp span (ms, brec's 32-bit arithmetic) of a data group. */
  maxDurationMs: number;
}

/** What one held tag costs beyond its body: the tag object, its view and its own ArrayBuffer (JS heap). */
export const PER_TAG_COST = 256;

/** The largest tag a live capture accepts. Real frames are far below it; the FLV format allows 16 MiB. */
export const MAX_LIVE_TAG_BYTES = 8 * 1024 * 1024;

const MIB = 1024 * 1024;

/** The per-room memory budget split into its parts (see docs/hardening-recording.md). */
export interface CaptureLimits {
  /** Everything the capture may hold: parser bytes + open group. Over it, the connection is cut. */
  budgetBytes: number;
  maxTagBytes: number;
  group: GroupLimits;
}

/**
 * A budget of B MiB allows tags of up to B/8 (at most 8 MiB) and groups of up to B/2; the parser holds at most
 * about two tags. Together they stay below B, so the budget check is a backstop, not the usual path.
 */
export function captureLimits(budgetMb: number): CaptureLimits {
  const budgetBytes = Math.max(8, budgetMb) * MIB;
  return {
    budgetBytes,
    maxTagBytes: Math.min(MAX_LIVE_TAG_BYTES, Math.floor(budgetBytes / 8)),
    group: { maxBytes: Math.floor(budgetBytes / 2), maxTags: 20_000, maxDurationMs: 30_000 },
  };
}

/** Running totals of the open group, checked before a tag joins it. */
export class GroupMeter {
  bytes = 0;
  tags = 0;
  private firstTimestamp = 0;
  /** Groups ended by a limit rather than by a keyframe (an anomaly: a hostile or broken stream). */
  capped = 0;

  constructor(private readonly limits: GroupLimits) {}

  reset(firstTimestamp: number): void {
    this.bytes = 0;
    this.tags = 0;
    this.firstTimestamp = firstTimestamp;
  }

  add(size: number): void {
    this.bytes += size + PER_TAG_COST;
    this.tags++;
  }

  /** Whether adding this tag would break a limit (the caller then starts a new group with it). */
  full(size: number, timestamp: number, data: boolean): boolean {
    const l = this.limits;
    const over = this.tags >= l.maxTags || this.bytes + size + PER_TAG_COST > l.maxBytes
      || (data && ((timestamp - this.firstTimestamp) | 0) > l.maxDurationMs);
    if (over) this.capped++;
    return over;
  }
}
