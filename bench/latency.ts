// Latency percentiles (nearest rank) from a list of milliseconds.
export interface LatencySummary {
  count: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
}

export function summarize(ms: Float64Array | number[]): LatencySummary {
  const sorted = Float64Array.from(ms).sort();
  const n = sorted.length;
  const at = (q: number): number => (n ? sorted[Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1))]! : Number.NaN);
  let sum = 0;
  for (const v of sorted) sum += v;
  return { count: n, p50Ms: at(0.5), p90Ms: at(0.9), p99Ms: at(0.99), maxMs: n ? sorted[n - 1]! : Number.NaN, meanMs: n ? sum / n : Number.NaN };
}
