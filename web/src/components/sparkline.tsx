// A tiny SVG line chart of the last minutes (Mbps solid, pace dashed on its own 0..1.2 scale).
import type { Point } from '../store';

const W = 160;
const H = 36;

function path(points: Point[], pick: (p: Point) => number, max: number, t0: number, span: number): string {
  return points.map((p, i) => `${i ? 'L' : 'M'}${(((p.t - t0) / span) * W).toFixed(1)},${(H - (Math.min(pick(p), max) / max) * (H - 2) - 1).toFixed(1)}`).join('');
}

export function Sparkline({ points }: { points: Point[] }) {
  if (points.length < 2) return <svg class="spark" width={W} height={H} aria-label="no data yet" />;
  const t0 = points[0].t;
  const span = Math.max(1, points[points.length - 1].t - t0);
  const maxMbps = Math.max(0.5, ...points.map((p) => p.mbps)) * 1.1;
  return (
    <svg class="spark" width={W} height={H} viewBox={`0 0 ${W} ${H}`} aria-label="Mbps and pace, last minutes">
      <path d={path(points, (p) => p.pace, 1.2, t0, span)} class="spark-pace" />
      <path d={path(points, (p) => p.mbps, maxMbps, t0, span)} class="spark-mbps" />
    </svg>
  );
}
