// Number and date text exactly as brec's JSON (Newtonsoft on .NET) prints them, so exported XML matches brec's.

/**
 * A double the way .NET's round-trip formatting prints it, with Newtonsoft's ".0" for integral values:
 * shortest round-trip digits, scientific notation when the decimal exponent is >= 15 or <= -5
 * (`1E+15`, `1E-05`, `5E-324`), otherwise plain digits (`1920.0`, `8.323`).
 */
export function formatDotNetDouble(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  if (v === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  const [mant, expText] = v.toExponential().split('e') as [string, string];
  const negative = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  const exp = Number(expText);
  const sign = negative ? '-' : '';
  if (exp >= 15 || exp < -4) {
    const frac = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const e = Math.abs(exp).toString().padStart(2, '0');
    return `${sign}${digits[0]}${frac}E${exp < 0 ? '-' : '+'}${e}`;
  }
  let text: string;
  if (exp < 0) text = `0.${'0'.repeat(-exp - 1)}${digits}`;
  else if (digits.length <= exp + 1) text = digits + '0'.repeat(exp + 1 - digits.length);
  else text = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  return sign + (text.includes('.') ? text : `${text}.0`);
}

const pad = (n: number, w = 2): string => n.toString().padStart(w, '0');

/**
 * A DateTimeOffset the way Newtonsoft writes it: local time of the offset, fractional seconds with
 * trailing zeros trimmed (omitted when zero), then `+HH:MM`. E.g. `2345-03-14T07:08:09.012+04:00`.
 */
export function formatDotNetDate(utcMs: number, offsetMinutes: number): string {
  const d = new Date(Math.round(utcMs) + offsetMinutes * 60_000);
  if (Number.isNaN(d.getTime())) return '0001-01-01T00:00:00+00:00';
  const ms = d.getUTCMilliseconds();
  const frac = ms ? `.${pad(ms, 3).replace(/0+$/, '')}` : '';
  const off = Math.abs(offsetMinutes);
  const y = d.getUTCFullYear();
  return `${pad(y, 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${frac}${offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(off / 60))}:${pad(off % 60)}`;
}

/** Parses an ISO date with an optional `Z`/`±HH:MM` suffix into UTC milliseconds and the offset in minutes. */
export function parseDotNetDate(text: string): { value: number; offset: number } | null {
  const m = /^(\d{4,})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)?$/.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, f, z] = m;
  const fracMs = f ? Number(`0.${f}`) * 1000 : 0;
  // setUTCFullYear keeps years below 100 literal (Date.UTC would map them to 19xx).
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h), Number(mi), Number(s), 0);
  const local = date.getTime() + Math.round(fracMs);
  let offset = 0;
  if (z && z !== 'Z') offset = (z[0] === '-' ? -1 : 1) * (Number(z.slice(1, 3)) * 60 + Number(z.slice(4, 6)));
  return { value: local - offset * 60_000, offset };
}
