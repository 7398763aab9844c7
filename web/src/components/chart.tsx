// A room's last hour drawn by uPlot: bitrate (left axis), pace (right axis) and optionally bytes written, with a hover tooltip.
import { useEffect, useRef } from 'preact/hooks';
import './uplot-locale';
import uPlot from 'uplot';
import { bytes, DASH, dateTime, pace as fmtPace } from '../format';
import type { History } from '../history';
import { locale, t } from '../i18n';

export interface ChartProps {
  history: History | undefined;
  /** Bumped by the store whenever any history changed; the chart redraws when its own data changed. */
  version: number;
  height: number;
  /** A third series: the session's bytes written (room detail). */
  withBytes?: boolean;
}

/** A chart spans at least this much time, so a fresh room's few points do not stretch over the whole width. */
const MIN_WINDOW_MS = 5 * 60_000;

/** Tick steps of the time axis, whole minutes only, so no two ticks read the same hh:mm. */
const MINUTE_INCRS = [1, 2, 5, 10, 15, 20, 30, 60].map((m) => m * 60_000);

const cssVar = (name: string, fallback: string): string =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;

/** The tooltip: one box over the plot, following the cursor, with the time and every series' value at it. */
function tooltip(withBytes: boolean): uPlot.Plugin {
  let box: HTMLDivElement;
  return {
    hooks: {
      init: (u) => {
        box = document.createElement('div');
        box.className = 'chart-tip';
        box.style.display = 'none';
        u.over.appendChild(box);
        u.over.addEventListener('mouseleave', () => (box.style.display = 'none'));
      },
      setCursor: (u) => {
        const i = u.cursor.idx;
        if (i === null || i === undefined || u.cursor.left === undefined || u.cursor.left < 0) {
          box.style.display = 'none';
          return;
        }
        const [ts, mbps, pace, written] = u.data as unknown as [number[], number[], (number | null)[], number[]];
        const lines = [dateTime(ts[i]), `${t('chart.bitrate')}: ${mbps[i]?.toFixed(2) ?? DASH} Mbit/s`, `${t('chart.pace')}: ${fmtPace(pace[i] ?? 'NaN')}`];
        if (withBytes) lines.push(`${t('chart.written')}: ${bytes(written[i])}`);
        box.textContent = lines.join('\n');
        box.style.display = 'block';
        const left = u.cursor.left;
        box.style.left = `${Math.min(left + 10, u.over.clientWidth - box.offsetWidth)}px`;
        box.style.top = '4px';
      },
    },
  };
}

function options(width: number, height: number, withBytes: boolean): uPlot.Options {
  const accent = cssVar('--accent', '#2f6fed');
  const ok = cssVar('--ok', '#1f9d55');
  const warn = cssVar('--warn', '#c77800');
  const muted = cssVar('--muted', '#677084');
  const grid = { stroke: cssVar('--line', '#dde1e8'), width: 1 };
  const axis = { stroke: muted, grid, ticks: grid, font: '11px system-ui, sans-serif', size: 36 };
  const series: uPlot.Series[] = [
    {},
    { label: t('chart.bitrate'), scale: 'mbps', stroke: accent, width: 1.5, fill: `${accent}22` },
    { label: t('chart.pace'), scale: 'pace', stroke: ok, width: 1.2, dash: [4, 3] },
  ];
  const clock = (ms: number): string => new Date(ms).toLocaleTimeString(locale(), { hour: '2-digit', minute: '2-digit', hour12: false });
  const axes: uPlot.Axis[] = [
    // Local wall-clock time, one line: the window is at least 5 minutes, so minutes are the finest tick.
    { ...axis, space: 56, size: 24, incrs: MINUTE_INCRS, values: (_u, splits) => splits.map(clock) },
    { ...axis, scale: 'mbps', space: 18, values: (_u, v) => v.map((x) => `${+x.toFixed(2)}`), label: 'Mbit/s', labelSize: 14, labelFont: axis.font },
    { ...axis, scale: 'pace', side: 1, space: 18, size: 42, grid: { show: false }, values: (_u, v) => v.map((x) => `${+x.toFixed(1)}×`) },
  ];
  if (withBytes) {
    series.push({ label: t('chart.written'), scale: 'bytes', stroke: warn, width: 1.2 });
    axes.push({ ...axis, scale: 'bytes', side: 1, grid: { show: false }, size: 66, values: (_u, v) => v.map((x) => bytes(x)) });
  }
  return {
    width, height, ms: 1, series, axes,
    legend: { show: false },
    cursor: { y: false, points: { size: 5 } },
    scales: { x: { time: true, range: (_u, min, max) => (max === null || !Number.isFinite(max) ? [Date.now() - MIN_WINDOW_MS, Date.now()] : [Math.min(min, max - MIN_WINDOW_MS), max]) }, mbps: { range: (_u, _min, max) => [0, Math.max(0.5, max * 1.1)] }, pace: { range: [0, 1.25] }, bytes: { range: (_u, _min, max) => [0, Math.max(1, max * 1.05)] } },
    plugins: [tooltip(withBytes)],
  };
}

const columns = (h: History | undefined, withBytes: boolean): uPlot.AlignedData =>
  (h ? (withBytes ? [h.t, h.mbps, h.pace, h.bytes] : [h.t, h.mbps, h.pace]) : withBytes ? [[], [], [], []] : [[], [], []]) as uPlot.AlignedData;

export function HistoryChart({ history, version, height, withBytes = false }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const drawn = useRef<{ h: History | undefined; n: number }>({ h: undefined, n: -1 });

  useEffect(() => {
    const el = box.current!;
    const u = new uPlot(options(Math.max(120, el.clientWidth), height, withBytes), columns(history, withBytes), el);
    plot.current = u;
    drawn.current = { h: history, n: history?.t.length ?? 0 };
    // The chart follows its container's width: the cards' grid and the 390-px layout decide it, not the chart.
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(120, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
  }, [height, withBytes]);

  useEffect(() => {
    const n = history?.t.length ?? 0;
    if (!plot.current || (drawn.current.h === history && drawn.current.n === n && n > 0)) return;
    drawn.current = { h: history, n };
    plot.current.setData(columns(history, withBytes));
  }, [history, version]);

  const points = history?.t.length ?? 0;
  // The legend: which line is which, drawn as the plot draws it (colour, dashes), and on which axis it is read.
  const legend: [string, string, string, boolean][] = [
    ['bitrate', cssVar('--accent', '#2f6fed'), 'Mbit/s', false],
    ['pace', cssVar('--ok', '#1f9d55'), '×', true],
    ...(withBytes ? [['written', cssVar('--warn', '#c77800'), 'B', false] as [string, string, string, boolean]] : []),
  ];
  return (
    <div class="chart" data-points={points} data-first={history?.t[0] ?? ''} aria-label={t('chart.title')}>
      <div ref={box} class="chart-plot" />
      {points < 2 && <span class="chart-empty">{t('chart.noData')}</span>}
      {legend.length > 2 && (
        <ul class="chart-legend">
          {legend.map(([key, colour, unit, dashed]) => (
            <li key={key} data-series={key}><span class="swatch" style={`border-top: 2px ${dashed ? 'dashed' : 'solid'} ${colour}`} />{t(`chart.${key}`)} <small>({unit})</small></li>
          ))}
        </ul>
      )}
    </div>
  );
}
