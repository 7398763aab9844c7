// Human units and times for every page: MB and MB/s, Mbit/s, 1h23m, local time, and "—" for anything unset or not a number.
import { locale, t } from './i18n';
import { num, type Wire } from './types';

export const DASH = '—';
/** brec's rates are binary (networkMbps in Mibit/s, diskMBps in MiB/s); the UI shows decimal units like the rest of the web. */
const MEBI = 1.048576;

const decimals = (v: number): number => (v >= 100 ? 0 : v >= 10 ? 1 : 2);

/** 1234567 → "1.23 MB". */
export function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n) || n < 0) return DASH;
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(decimals(v))} ${units[u]}`;
}

/** ioStats.networkMbps (Mibit/s) → "2.52 Mbit/s". */
export function bitrate(w: Wire | string | null | undefined): string {
  const n = num(w);
  return Number.isFinite(n) ? `${(n * MEBI).toFixed(2)} Mbit/s` : DASH;
}

/** ioStats.diskMBps (MiB/s) → "1.4 MB/s". */
export function diskRate(w: Wire | string | null | undefined): string {
  const n = num(w);
  return Number.isFinite(n) ? `${(n * MEBI).toFixed(decimals(n * MEBI))} MB/s` : DASH;
}

/** Milliseconds → "1h23m", "4m05s", "12s" (zh: 1小时23分…); NaN or negative → "—". */
export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return DASH;
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const [uh, um, us] = [t('dur.h'), t('dur.m'), t('dur.s')];
  if (h > 0) return `${h}${uh}${String(m).padStart(2, '0')}${um}`;
  if (m > 0) return `${m}${um}${String(sec).padStart(2, '0')}${us}`;
  return s === 0 && ms > 0 ? `${(ms / 1000).toFixed(1)}${us}` : `${s}${us}`;
}

/** A number with fixed decimals, "—" for NaN and the strings "NaN"/"Infinity". */
export const fixed = (w: Wire | string | null | undefined, digits = 2): string => {
  const n = num(w);
  return Number.isFinite(n) ? n.toFixed(digits) : DASH;
};

/** durationRatio → "0.99×". */
export const pace = (w: Wire | string | null | undefined): string => {
  const n = num(w);
  return Number.isFinite(n) ? `${n.toFixed(2)}×` : DASH;
};

export const count = (n: number | null | undefined): string =>
  n === null || n === undefined || !Number.isFinite(n) ? DASH : n.toLocaleString(locale());

/** A time as local time: today's as hh:mm:ss, older ones with the date; unset (0001-01-01, invalid) → "—". */
export function dateTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return DASH;
  const d = new Date(value);
  if (Number.isNaN(d.getTime()) || d.getFullYear() < 1971) return DASH;
  const today = new Date().toDateString() === d.toDateString();
  return today
    ? d.toLocaleTimeString(locale(), { hour12: false })
    : d.toLocaleString(locale(), { hour12: false, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

