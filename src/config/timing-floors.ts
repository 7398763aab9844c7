// Lowest values the recorder uses for its timing settings: 0 must not mean "no watchdog" or "retry in a tight loop".
import type { FieldName, RoomSettings } from './fields.js';

/**
 * Floors in the unit of each field (ms, or s for TimingCheckInterval / TimingStreamRetryNoQn / TimingOriginCheckInterval). A stored value
 * below its floor is kept in config.json as written (brec reads the same file) but used as the floor.
 */
export const TIMING_FLOORS = {
  TimingStreamRetry: 1000,
  TimingStreamRetryNoQn: 1,
  TimingStreamConnect: 1000,
  TimingWatchdogTimeout: 1000,
  TimingApiTimeout: 1000,
  TimingDanmakuRetry: 1000,
  TimingCheckInterval: 5,
  TimingOriginCheckInterval: 2,
} as const satisfies Partial<Record<FieldName, number>>;

/** The settings with every timing raised to its floor, and the names of the fields that were raised. */
export function withTimingFloors(settings: RoomSettings): { settings: RoomSettings; raised: string[] } {
  const out = { ...settings };
  const raised: string[] = [];
  for (const [field, floor] of Object.entries(TIMING_FLOORS) as [keyof typeof TIMING_FLOORS, number][]) {
    if (out[field] < floor) {
      out[field] = floor;
      raised.push(`${field} ${settings[field]} → ${floor}`);
    }
  }
  return { settings: out, raised };
}
