// Where a new room actor goes: the default (a thread per room up to one thread per core, then spread evenly) or K per thread.
import { availableParallelism } from 'node:os';

/**
 * Room-host threads of the default placement: one per core. Every thread costs its own heap, module graph,
 * JIT compilation and wake-ups; on 2 cores, 2 threads recorded 50 rooms for 15 % less CPU and 1 MiB less per room
 * than 4, and 10 rooms for 30 % less CPU. More threads only isolate rooms better (one busy or stalled host holds
 * back the rooms it carries): `--rooms-per-worker` buys that. Measured trade-off: docs/performance.md.
 */
export function defaultMaxHosts(cores = availableParallelism()): number {
  return Math.max(1, cores);
}

/**
 * The host that takes the next room, or undefined for a new one. With `roomsPerWorker` K: the least-loaded
 * host with fewer than K rooms. Without: a new host while there are fewer than `maxHosts`, then the least loaded.
 */
export function pickHost<T extends { rooms: { size: number } }>(hosts: readonly T[], roomsPerWorker: number | undefined, maxHosts: number): T | undefined {
  let least: T | undefined;
  for (const h of hosts) if (!least || h.rooms.size < least.rooms.size) least = h;
  if (roomsPerWorker !== undefined) return least && least.rooms.size < Math.max(1, roomsPerWorker) ? least : undefined;
  return hosts.length < maxHosts ? undefined : least;
}
