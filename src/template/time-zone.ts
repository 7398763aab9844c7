// UTC offsets of IANA time zones at an instant, via Intl (no tz database of our own), cached per zone.

const formatters = new Map<string, Intl.DateTimeFormat | null>();

// Fluid accepts Windows zone ids too (TimeZoneInfo); the ones brec users are likely to write map to IANA.
const WINDOWS_ZONES: Record<string, string> = {
  'China Standard Time': 'Asia/Shanghai',
  'Taipei Standard Time': 'Asia/Taipei',
  'Tokyo Standard Time': 'Asia/Tokyo',
  'Korea Standard Time': 'Asia/Seoul',
  'Singapore Standard Time': 'Asia/Singapore',
  'UTC': 'UTC',
  'Coordinated Universal Time': 'UTC',
};

function formatter(zone: string): Intl.DateTimeFormat | null {
  let f = formatters.get(zone);
  if (f !== undefined) return f;
  try {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: WINDOWS_ZONES[zone] ?? zone, hourCycle: 'h23',
      year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
  } catch {
    f = null; // unknown zone
  }
  if (formatters.size < 64) formatters.set(zone, f);
  return f;
}

/** Offset in minutes east of UTC of `zone` at `epochMs`, or null when the zone is unknown. */
export function zoneOffsetMinutes(epochMs: number, zone: string): number | null {
  const f = formatter(zone);
  if (!f) return null;
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(epochMs))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  const whole = epochMs - (((epochMs % 1000) + 1000) % 1000);
  return Math.round((wall - whole) / 60_000);
}

/** The process's local offset (minutes east of UTC) at `epochMs`. */
export const localOffsetMinutes = (epochMs: number): number => -new Date(epochMs).getTimezoneOffset();
