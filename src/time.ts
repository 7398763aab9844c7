// Date formats of the brec wire formats: .NET DateTimeOffset strings with an explicit offset, never `Z`.

/** brec's "unset" DateTimeOffset. */
export const UNSET_DATE = '0001-01-01T00:00:00+00:00';

const pad = (n: number, w = 2): string => String(Math.trunc(Math.abs(n))).padStart(w, '0');

function offsetString(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  return `${sign}${pad(Math.abs(minutes) / 60)}:${pad(Math.abs(minutes) % 60)}`;
}

function format(date: Date, offsetMinutes: number, fraction: 'trim' | 'fixed'): string {
  const shifted = new Date(date.getTime() + offsetMinutes * 60_000);
  const base =
    `${pad(shifted.getUTCFullYear(), 4)}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}` +
    `T${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}`;
  let frac = pad(shifted.getUTCMilliseconds(), 3);
  if (fraction === 'trim') frac = frac.replace(/0+$/, '');
  return `${base}${frac ? `.${frac}` : ''}${offsetString(offsetMinutes)}`;
}

/** REST form: UTC with `+00:00`, fraction trimmed of trailing zeros (e.g. `2024-03-17T04:34:56.123+00:00`). */
export function formatUtc(date: Date | null | undefined): string {
  if (!date || Number.isNaN(date.getTime())) return UNSET_DATE;
  return format(date, 0, 'trim');
}

/** Webhook/file-event form: the server's local offset and always three fraction digits. */
export function formatLocal(date: Date = new Date()): string {
  return format(date, -date.getTimezoneOffset(), 'fixed');
}
