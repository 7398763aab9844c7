// .NET-style date formatting (custom and standard format strings, invariant culture) for the format_date filter.

/** An instant with the UTC offset it should be shown in (brec's DateTimeOffset). */
export class ZonedTime {
  constructor(readonly epochMs: number, readonly offsetMinutes: number) {}

  /** Shown when a template outputs the value without format_date. */
  toString(): string {
    return formatDotnetDate(this, 'yyyy-MM-dd HH:mm:ss zzz');
  }
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

// Standard (single-letter) formats of the invariant culture.
const STANDARD: Record<string, string> = {
  d: 'MM/dd/yyyy', D: 'dddd, dd MMMM yyyy', f: 'dddd, dd MMMM yyyy HH:mm', F: 'dddd, dd MMMM yyyy HH:mm:ss',
  g: 'MM/dd/yyyy HH:mm', G: 'MM/dd/yyyy HH:mm:ss', m: 'MMMM dd', M: 'MMMM dd', o: "yyyy'-'MM'-'dd'T'HH':'mm':'ss'.'fffffffzzz",
  O: "yyyy'-'MM'-'dd'T'HH':'mm':'ss'.'fffffffzzz", s: "yyyy'-'MM'-'dd'T'HH':'mm':'ss", t: 'HH:mm', T: 'HH:mm:ss',
  y: 'yyyy MMMM', Y: 'yyyy MMMM',
};
// These render the instant in UTC.
const STANDARD_UTC: Record<string, string> = {
  r: "ddd, dd MMM yyyy HH':'mm':'ss 'GMT'", R: "ddd, dd MMM yyyy HH':'mm':'ss 'GMT'", u: "yyyy'-'MM'-'dd HH':'mm':'ss'Z'",
};

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

function offsetText(minutes: number, count: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const h = Math.floor(abs / 60);
  if (count === 1) return `${sign}${h}`;
  if (count === 2) return `${sign}${pad(h, 2)}`;
  return `${sign}${pad(h, 2)}:${pad(abs % 60, 2)}`;
}

/** Formats like .NET `DateTimeOffset.ToString(format, InvariantCulture)`; throws on formats .NET rejects. */
export function formatDotnetDate(time: ZonedTime, format: string): string {
  if (format.length === 1 && STANDARD_UTC[format]) return formatDotnetDate(new ZonedTime(time.epochMs, 0), STANDARD_UTC[format]);
  if (format.length === 1 && STANDARD[format]) format = STANDARD[format];
  if (format === '') format = 'G';
  const w = new Date(time.epochMs + time.offsetMinutes * 60_000);
  const year = w.getUTCFullYear();
  const hour = w.getUTCHours();
  const ms = w.getUTCMilliseconds();
  let out = '';
  for (let i = 0; i < format.length; ) {
    const ch = format[i]!;
    let n = 1;
    while (format[i + n] === ch) n++;
    switch (ch) {
      case 'y': out += n === 1 ? String(year % 100) : n === 2 ? pad(year % 100, 2) : pad(year, n); break;
      case 'M': out += n === 1 ? String(w.getUTCMonth() + 1) : n === 2 ? pad(w.getUTCMonth() + 1, 2) : n === 3 ? MONTHS[w.getUTCMonth()]!.slice(0, 3) : MONTHS[w.getUTCMonth()]; break;
      case 'd': out += n === 1 ? String(w.getUTCDate()) : n === 2 ? pad(w.getUTCDate(), 2) : n === 3 ? DAYS[w.getUTCDay()]!.slice(0, 3) : DAYS[w.getUTCDay()]; break;
      case 'H': out += n === 1 ? String(hour) : pad(hour, 2); break;
      case 'h': out += n === 1 ? String(hour % 12 || 12) : pad(hour % 12 || 12, 2); break;
      case 'm': out += n === 1 ? String(w.getUTCMinutes()) : pad(w.getUTCMinutes(), 2); break;
      case 's': out += n === 1 ? String(w.getUTCSeconds()) : pad(w.getUTCSeconds(), 2); break;
      case 'f':
      case 'F': {
        if (n > 7) throw new RangeError(`invalid date format "${format}": at most 7 '${ch}'`);
        const digits = pad(ms, 3).padEnd(7, '0').slice(0, n);
        if (ch === 'f') out += digits;
        else {
          const trimmed = digits.replace(/0+$/, '');
          if (!trimmed && out.endsWith('.')) out = out.slice(0, -1); // .NET drops the dot before an empty F
          out += trimmed;
        }
        break;
      }
      case 't': out += (hour < 12 ? 'AM' : 'PM').slice(0, n === 1 ? 1 : 2); break;
      case 'z': out += offsetText(time.offsetMinutes, Math.min(n, 3)); break;
      case 'K': out += offsetText(time.offsetMinutes, 3).repeat(n); break;
      case 'g': out += 'A.D.'; break;
      case "'":
      case '"': {
        const end = format.indexOf(ch, i + 1);
        if (end < 0) throw new RangeError(`invalid date format "${format}": unterminated quote`);
        out += format.slice(i + 1, end);
        i = end + 1;
        continue;
      }
      case '\\':
        if (i + 1 >= format.length) throw new RangeError(`invalid date format "${format}": trailing backslash`);
        out += format[i + 1];
        i += 2;
        continue;
      case '%':
        // "%d" = the custom specifier d alone; the next character is formatted by the next iteration.
        i += 1;
        continue;
      default:
        out += ch.repeat(n);
    }
    i += n;
  }
  return out;
}
