// Suggested moments: the windows of a recording with the most danmaku, chosen without overlap, best first.

export interface Suggestion {
  startMs: number;
  endMs: number;
  /** Elements (comments, super chats, gifts, guard purchases) inside the window. */
  count: number;
}

/**
 * Slides a window of `windowS` seconds over the elements' times (`times`, seconds, any order) in steps of `stepS`
 * and returns the `n` windows with the highest counts that do not overlap each other (a tie goes to the earlier
 * window). Windows with no element are never suggested.
 */
export function suggestWindows(times: ArrayLike<number>, windowS: number, n: number, stepS = 1): Suggestion[] {
  if (times.length === 0 || n <= 0) return [];
  // A typed array sorts numerically (and fast): a big XML's times are sorted in a few ms.
  const ts = Float64Array.from(times, (t) => Math.max(0, t)).sort();
  const last = ts[ts.length - 1]!;
  const windows: { k: number; count: number }[] = [];
  let lo = 0;
  let hi = 0;
  // Starts from 0 to the last element: a window starting later holds nothing.
  for (let k = 0; k * stepS <= last; k++) {
    const start = k * stepS;
    while (lo < ts.length && ts[lo]! < start) lo++;
    if (hi < lo) hi = lo;
    while (hi < ts.length && ts[hi]! < start + windowS) hi++;
    if (hi > lo) windows.push({ k, count: hi - lo });
  }
  windows.sort((a, b) => b.count - a.count || a.k - b.k);
  const chosen: Suggestion[] = [];
  for (const w of windows) {
    const startMs = Math.round(w.k * stepS * 1000);
    const endMs = startMs + Math.round(windowS * 1000);
    if (chosen.some((c) => startMs < c.endMs && c.startMs < endMs)) continue;
    chosen.push({ startMs, endMs, count: w.count });
    if (chosen.length === n) break;
  }
  return chosen;
}
