// .NET date format strings and time zones of the format_date / time_zone filters.
import { describe, expect, it } from 'vitest';
import { formatDotnetDate, ZonedTime } from '../../src/template/index.js';
import { zoneOffsetMinutes } from '../../src/template/time-zone.js';

const t = new ZonedTime(Date.parse('2024-03-07T04:05:06.120Z'), 8 * 60); // Thursday 12:05:06.120 +08:00

describe('formatDotnetDate', () => {
  it.each([
    ['yyyyMMdd-HHmmss-fff', '20240307-120506-120'],
    ['yy-M-d H:m:s', '24-3-7 12:5:6'],
    ['hh:mm tt', '12:05 PM'],
    ['ddd dddd MMM MMMM', 'Thu Thursday Mar March'],
    ['ss.FFF', '06.12'],
    ['ss.FFFFFFF|ss.fffffff', '06.12|06.1200000'],
    ['z zz zzz K', '+8 +08 +08:00 +08:00'],
    ["'literal' \"q\" \\y yyyy", 'literal q y 2024'],
    ['%d', '7'],
    ['o', '2024-03-07T12:05:06.1200000+08:00'],
    ['s', '2024-03-07T12:05:06'],
    ['u', '2024-03-07 04:05:06Z'],
  ])('%s → %s', (format, expected) => {
    expect(formatDotnetDate(t, format)).toBe(expected);
  });

  it('drops the dot before an empty F and rejects more than 7 f', () => {
    expect(formatDotnetDate(new ZonedTime(Date.parse('2024-01-01T00:00:00Z'), 0), 'ss.FFF')).toBe('00');
    expect(() => formatDotnetDate(t, 'ffffffff')).toThrow(RangeError);
  });

  it('converts time zones with DST through Intl', () => {
    expect(zoneOffsetMinutes(Date.parse('2024-01-15T12:00:00Z'), 'America/New_York')).toBe(-300);
    expect(zoneOffsetMinutes(Date.parse('2024-07-15T12:00:00Z'), 'America/New_York')).toBe(-240);
    expect(zoneOffsetMinutes(Date.parse('2024-07-15T12:00:00Z'), 'Asia/Shanghai')).toBe(480);
    expect(zoneOffsetMinutes(0, 'China Standard Time')).toBe(480);
    expect(zoneOffsetMinutes(0, 'Not/AZone')).toBeNull();
  });
});
