// Number and time formatting for the pages.
import { num, type Wire } from './types';

export function bytes(n: number): string {
  if (!Number.isFinite(n)) return '–';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(u === 0 ? 0 : 1)} ${units[u]}`;
}

export function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return '0:00';
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

export const fixed = (w: Wire | string | null | undefined, digits = 2): string => {
  const n = num(w);
  return Number.isFinite(n) ? n.toFixed(digits) : '–';
};

export const time = (iso: string): string => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) || d.getFullYear() < 2 ? '–' : d.toLocaleTimeString();
};
