// TEMPORARY: known open defects (issue 45) awaiting their fix. While a defect is
// listed, the invariant that catches it counts each hit (printed after the run) instead of failing. The lead removes
// each entry when merging its fix; the model's checks are then strict again. Nothing else may be listed here.

export const PENDING_DEFECTS = {
  /** Defect 3: a split, reconnect or file's first frame reported as a `timestamp-jump` gap (fixed by lifecycle 5a1ffb4, merged). */
  falseTimestampJumpGap: false,
} as const;

export type PendingDefect = keyof typeof PENDING_DEFECTS;

/** Hits of each pending defect: what the model saw but did not fail on. */
export const toleratedHits = new Map<PendingDefect, Set<string>>();

/** True (and counted once per distinct detail) when `defect` is still pending; false when the check must fail. */
export function tolerated(defect: PendingDefect, detail: string): boolean {
  if (!PENDING_DEFECTS[defect]) return false;
  const hits = toleratedHits.get(defect) ?? new Set<string>();
  hits.add(detail);
  toleratedHits.set(defect, hits);
  return true;
}

export function toleratedSummary(): string {
  return [...toleratedHits].map(([d, hits]) => `pending defect ${d} (TEMPORARY tolerance): ${hits.size} hit(s)\n  ${[...hits].slice(0, 10).join('\n  ')}`).join('\n');
}
