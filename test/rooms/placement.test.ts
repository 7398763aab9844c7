// Room placement: fill a thread with 32 rooms before the next, up to the cap, then the least-loaded thread; --rooms-per-worker K fills K per thread.
import { describe, expect, it } from 'vitest';
import { defaultMaxHosts, MAX_ROOMS_PER_THREAD, pickHost, ROOMS_BEFORE_NEXT_THREAD } from '../../src/rooms/placement.js';

type Host = { id: number; rooms: Set<number> };

/** Places `n` rooms one by one as the supervisor does and returns the room count of every host. */
function place(n: number, roomsPerWorker: number | undefined, maxHosts: number, fill?: number, cap?: number): number[] {
  const hosts: Host[] = [];
  for (let room = 0; room < n; room++) {
    let h = pickHost(hosts, roomsPerWorker, maxHosts, fill, cap);
    if (!h) hosts.push((h = { id: hosts.length, rooms: new Set() }));
    h.rooms.add(room);
  }
  return hosts.map((h) => h.rooms.size);
}

describe('placement', () => {
  it('default: 32 rooms on a thread before the next starts, up to the cap, then rooms spread evenly', () => {
    expect(ROOMS_BEFORE_NEXT_THREAD).toBe(32);
    expect(place(1, undefined, 4)).toEqual([1]);
    expect(place(32, undefined, 4)).toEqual([32]);
    expect(place(33, undefined, 4)).toEqual([32, 1]);
    expect(place(50, undefined, 2)).toEqual([32, 18]);
    expect(place(100, undefined, 2)).toEqual([50, 50]);
    expect(place(256, undefined, 16)).toEqual(Array(8).fill(32));
    expect(place(600, undefined, 16)).toEqual([38, 38, 38, 38, 38, 38, 38, 38, 37, 37, 37, 37, 37, 37, 37, 37]);
    expect(place(3, undefined, 4, 1)).toEqual([1, 1, 1]);
    expect(place(50, undefined, 4, 1)).toEqual([13, 13, 12, 12]);
    expect(defaultMaxHosts(2)).toBe(2);
    expect(defaultMaxHosts(16)).toBe(16);
    expect(defaultMaxHosts(0)).toBe(1);
  });

  it('default: no thread carries more than 256 rooms; past cores x 256, threads are added beyond one per core', () => {
    expect(MAX_ROOMS_PER_THREAD).toBe(256);
    expect(place(512, undefined, 2)).toEqual([256, 256]);
    expect(place(513, undefined, 2)).toEqual([256, 256, 1]);
    expect(place(700, undefined, 2)).toEqual([256, 256, 188]);
    expect(place(10, undefined, 1, 2, 4)).toEqual([4, 4, 2]);
    // A cap below the fill size does not stop a thread from filling.
    expect(place(40, undefined, 1, 32, 8)).toEqual([32, 8]);
  });

  it('--rooms-per-worker K: K rooms per thread, as many threads as that takes', () => {
    expect(place(5, 1, 4)).toEqual([1, 1, 1, 1, 1]);
    expect(place(7, 3, 4)).toEqual([3, 3, 1]);
  });

  it('a freed slot on a thread is reused before the cap is passed', () => {
    const hosts: Host[] = [{ id: 0, rooms: new Set([1]) }, { id: 1, rooms: new Set([2, 3]) }];
    expect(pickHost(hosts, undefined, 2)?.id).toBe(0);
    expect(pickHost(hosts, 2, 2)?.id).toBe(0);
    expect(pickHost([{ id: 0, rooms: new Set([1, 2]) }], 2, 2)).toBeUndefined();
  });
});
