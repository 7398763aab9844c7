// Where a new room actor goes: the default (fill a thread with up to 32 rooms, then the next, up to one thread per core, then spread evenly up to 256 a thread) or K per thread.
import { availableParallelism } from 'node:os';

/**
 * Room-host threads of the default placement: at most one per core. Every thread costs its own heap, module graph,
 * JIT compilation and wake-ups. On 2 cores, one thread recorded 10 and 20 rooms for 18–23 % less CPU than two, and
 * 50 rooms for 12 % less (docs/performance.md, "Placement"). More threads only isolate rooms better (a crash restarts
 * the rooms of its thread; a busy or stalled host holds back the rooms it carries): `--rooms-per-worker` buys that.
 */
export function defaultMaxHosts(cores = availableParallelism()): number {
  return Math.max(1, cores);
}

/**
 * Rooms a default-placement thread takes before the next thread starts. 32 rooms of 6 Mbps cost a thread about 10 %
 * of a core on the 2-core benchmark machine, which leaves headroom for bursts and higher bitrates.
 */
export const ROOMS_BEFORE_NEXT_THREAD = 32;

/**
 * Most rooms a default-placement thread carries; past `maxHosts × this`, threads are added beyond one per core.
 * Why: a thread's heap grows about 0.1 MiB per room (25–33 MB at 256 rooms of the 360p clip, against the 96 MB
 * old-generation limit of every room thread), and one out-of-memory or stalled thread takes all its rooms with it.
 */
export const MAX_ROOMS_PER_THREAD = 256;

/**
 * The host that takes the next room, or undefined for a new one. With `roomsPerWorker` K: the least-loaded host
 * with fewer than K rooms. Without: the least-loaded host while it has fewer than `fill` rooms, else a new host
 * while there are fewer than `maxHosts`, else the least loaded while it has fewer than `cap` rooms, else a new host.
 */
export function pickHost<T extends { rooms: { size: number } }>(
  hosts: readonly T[],
  roomsPerWorker: number | undefined,
  maxHosts: number,
  fill = ROOMS_BEFORE_NEXT_THREAD,
  cap = MAX_ROOMS_PER_THREAD,
): T | undefined {
  let least: T | undefined;
  for (const h of hosts) if (!least || h.rooms.size < least.rooms.size) least = h;
  if (roomsPerWorker !== undefined) return least && least.rooms.size < Math.max(1, roomsPerWorker) ? least : undefined;
  if (least && least.rooms.size < fill) return least;
  if (hosts.length < maxHosts) return undefined;
  return least && least.rooms.size < Math.max(fill, cap) ? least : undefined;
}
