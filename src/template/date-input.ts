// Turns what a template hands to a date filter ("now", a Date, an ISO string, epoch seconds) into a ZonedTime.
import { ZonedTime } from './dotnet-date.js';
import { localOffsetMinutes } from './time-zone.js';

/**
 * `now` is fixed once per render, so every "now" in one file name is the same instant (as in brec).
 * Returns null for input that is not a date; filters then pass the input through unchanged, as Fluid does.
 */
export function toZonedTime(input: unknown, now: number): ZonedTime | null {
  if (input instanceof ZonedTime) return input;
  let ms: number;
  if (input instanceof Date) ms = input.getTime();
  else if (typeof input === 'number') ms = input * 1000;
  else if (typeof input === 'string') {
    const s = input.trim().toLowerCase();
    if (s === 'now') ms = now;
    else if (s === 'today') {
      const d = new Date(now);
      d.setHours(0, 0, 0, 0);
      ms = d.getTime();
    } else ms = /^-?\d+$/.test(s) ? Number(s) * 1000 : Date.parse(input);
  } else return null;
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return null;
  return new ZonedTime(ms, localOffsetMinutes(ms));
}
