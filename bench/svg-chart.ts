// A hand-written SVG chart of a sweep: CPU % and RSS of liverec and ffmpeg against the number of rooms.
import type { RunFigures } from './figures.js';

interface Series {
  name: string;
  color: string;
  points: [number, number][];
}

const W = 440;
const H = 300;
const M = { left: 60, right: 16, top: 36, bottom: 46 };

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A "nice" upper bound and step for an axis starting at 0. */
function niceAxis(max: number): { top: number; step: number } {
  if (!(max > 0)) return { top: 1, step: 0.2 };
  const raw = max / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw)!;
  return { top: Math.ceil(max / step) * step, step };
}

function panel(x0: number, title: string, yLabel: string, series: Series[], xs: number[]): string {
  const xMax = Math.max(...xs);
  const yMax = Math.max(0, ...series.flatMap((s) => s.points.map((p) => p[1])));
  const y = niceAxis(yMax * 1.05);
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const px = (v: number): number => x0 + M.left + (v / xMax) * pw;
  const py = (v: number): number => M.top + ph - (v / y.top) * ph;
  const out: string[] = [`<text x="${x0 + W / 2}" y="20" text-anchor="middle" font-weight="bold">${esc(title)}</text>`];
  for (let v = 0; v <= y.top + 1e-9; v += y.step) {
    out.push(`<line x1="${px(0)}" x2="${px(xMax)}" y1="${py(v).toFixed(1)}" y2="${py(v).toFixed(1)}" stroke="#ddd"/>`);
    out.push(`<text x="${px(0) - 6}" y="${(py(v) + 4).toFixed(1)}" text-anchor="end">${+v.toFixed(2)}</text>`);
  }
  for (const v of xs) out.push(`<text x="${px(v)}" y="${M.top + ph + 16}" text-anchor="middle">${v}</text>`);
  out.push(`<line x1="${px(0)}" x2="${px(xMax)}" y1="${py(0)}" y2="${py(0)}" stroke="#333"/>`, `<line x1="${px(0)}" x2="${px(0)}" y1="${py(0)}" y2="${py(y.top)}" stroke="#333"/>`);
  out.push(`<text x="${x0 + M.left + pw / 2}" y="${H - 8}" text-anchor="middle">rooms</text>`);
  out.push(`<text transform="translate(${x0 + 14} ${M.top + ph / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`);
  series.forEach((s, i) => {
    if (s.points.length === 0) return;
    out.push(`<polyline fill="none" stroke="${s.color}" stroke-width="2" points="${s.points.map(([a, b]) => `${px(a).toFixed(1)},${py(b).toFixed(1)}`).join(' ')}"/>`);
    for (const [a, b] of s.points) out.push(`<circle cx="${px(a).toFixed(1)}" cy="${py(b).toFixed(1)}" r="3" fill="${s.color}"><title>${esc(`${s.name}: ${b.toFixed(1)} at ${a} rooms`)}</title></circle>`);
    out.push(`<rect x="${x0 + M.left + 10}" y="${M.top + 6 + i * 16}" width="10" height="10" fill="${s.color}"/><text x="${x0 + M.left + 26}" y="${M.top + 15 + i * 16}">${esc(s.name)}</text>`);
  });
  return out.join('\n');
}

export function sweepSvg(runs: RunFigures[], caption: string): string {
  const xs = runs.map((r) => r.rooms);
  const lr = (pick: (r: RunFigures) => number): [number, number][] => runs.map((r) => [r.rooms, pick(r)]);
  const ff = (pick: (r: RunFigures) => number | undefined): [number, number][] =>
    runs.filter((r) => r.ffmpeg).map((r) => [r.rooms, pick(r)!]);
  const cpu: Series[] = [
    { name: 'liverec', color: '#1f77b4', points: lr((r) => r.liverec.cpu.cpuPct) },
    { name: 'ffmpeg -c copy (sum)', color: '#d62728', points: ff((r) => r.ffmpeg?.cpu.cpuPct) },
  ];
  const rss: Series[] = [
    { name: 'liverec', color: '#1f77b4', points: lr((r) => r.liverec.rssPeakMiB) },
    { name: 'ffmpeg -c copy (sum)', color: '#d62728', points: ff((r) => r.ffmpeg?.rssPeakMiB) },
  ];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * W}" height="${H + 24}" viewBox="0 0 ${2 * W} ${H + 24}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    panel(0, 'CPU (% of one core)', 'CPU %', cpu, xs),
    panel(W, 'Resident memory (peak, MiB)', 'RSS MiB', rss, xs),
    `<text x="${W}" y="${H + 16}" text-anchor="middle" fill="#555">${esc(caption)}</text>`,
    '</svg>',
    '',
  ].join('\n');
}
