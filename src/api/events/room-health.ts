// A room's health for the UI and the event stream: ok, rate-limited, stalled, no-stream or error.
import type { Room } from '../../rooms/room.js';

export type RoomHealth = 'ok' | 'rate-limited' | 'stalled' | 'no-stream' | 'error';

/** How long a warning or error of the room colours its health when it is live but not recording. */
export const PROBLEM_WINDOW_MS = 30_000;
/** IO stats tick every 2 s while downloading; three missed ticks (or a tick with no bytes) is a stall. */
export const STALL_MS = 6_000;

export interface HealthInputs {
  now: number;
  limiterPausedUntil: number;
  /** When the room last logged a warning or error (0 = never). */
  lastProblemAt: number;
}

export function roomHealth(room: Room, inputs: HealthInputs): RoomHealth {
  const { state, ioStats } = room;
  if (inputs.limiterPausedUntil > inputs.now) return 'rate-limited';
  if (state.recording) {
    const last = ioStats.endTime ?? 0;
    if (last > 0 && (inputs.now - last > STALL_MS || ioStats.networkBytesDownloaded === 0)) return 'stalled';
    return 'ok';
  }
  if (state.streaming && state.autoRecordForThisSession && room.autoRecord && inputs.now - inputs.lastProblemAt < PROBLEM_WINDOW_MS) return 'error';
  return state.streaming ? 'ok' : 'no-stream';
}
