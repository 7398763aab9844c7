// Where a new room actor goes: the default (a thread per room up to 2 x cores threads, then spread evenly) or K per thread.
import { availableParallelism } from 'node:os';

/**
 * Room-host threads of the default placement. Every thread costs its own heap, module graph and wake-ups
 * (about 11 MB RSS with a live download); past 2 x cores threads they only add that cost, while fewer would
 * let one busy host hold back more rooms. Measured trade-off: docs/performance.md.
 */
export function defaultMaxHosts(cores = availableParallelism()): number {
  return Math.max(1, 2 * cores);
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
