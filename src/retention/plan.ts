// Which closed recordings retention deletes, oldest first, until the age, total-size and free-space limits hold.
import type { Recording } from './recordings.js';

export const GIB = 1024 ** 3;

export interface RetentionLimits {
  /** 0 = off. */
  maxAgeDays: number;
  /** GiB, fractions allowed; 0 = off. */
  maxTotalGB: number;
  /** GiB that must stay free on the work directory's disk; 0 = off. */
  minFreeGB: number;
}

export type RetentionReason = 'max-age' | 'max-total' | 'min-free';

export interface Deletion {
  recording: Recording;
  reason: RetentionReason;
}

export interface RetentionPlan {
  totalBytes: number;
  freeBytes: number | null;
  deletions: Deletion[];
  /** Recordings kept because they are open, being post-processed or not yet uploaded. */
  protected: string[];
}

/** A number setting given as text ("0.5"); anything not a finite non-negative number is 0 (off). */
export function parseGB(value: string | null | undefined): number {
  const n = Number((value ?? '').trim() || '0');
  return Number.isFinite(n) && n > 0 ? n : 0;
}

export const retentionEnabled = (l: RetentionLimits): boolean => l.maxAgeDays > 0 || l.maxTotalGB > 0 || l.minFreeGB > 0;

export function planRetention(recordings: Recording[], isProtected: (r: Recording) => boolean, limits: RetentionLimits, freeBytes: number | null, nowMs: number): RetentionPlan {
  const totalBytes = recordings.reduce((n, r) => n + r.bytes, 0);
  const plan: RetentionPlan = { totalBytes, freeBytes, deletions: [], protected: [] };
  if (!retentionEnabled(limits)) return plan;
  let total = totalBytes;
  let free = freeBytes;
  const maxAgeMs = limits.maxAgeDays * 86_400_000;
  for (const r of recordings) {
    if (isProtected(r)) {
      plan.protected.push(r.key);
      continue;
    }
    let reason: RetentionReason | null = null;
    if (limits.maxAgeDays > 0 && nowMs - r.modifiedMs > maxAgeMs) reason = 'max-age';
    else if (limits.maxTotalGB > 0 && total > limits.maxTotalGB * GIB) reason = 'max-total';
    else if (limits.minFreeGB > 0 && free !== null && free < limits.minFreeGB * GIB) reason = 'min-free';
    if (!reason) continue;
    plan.deletions.push({ recording: r, reason });
    total -= r.bytes;
    if (free !== null) free += r.bytes;
  }
  return plan;
}
