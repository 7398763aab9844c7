// CRC-32 (IEEE) for checking HLS segments: @node-rs/crc32's prebuilt PCLMUL code, or zlib's when that cannot load.
import { createRequire } from 'node:module';
import { crc32 as zlibCrc32 } from 'node:zlib';

/*
 * Why not node:zlib alone: every segment byte goes through this check (Bilibili's `<size>|<crc32>` titles), and
 * the zlib in Node 20 computes CRC-32 with tables at about 4 GiB/s: 10-12 % of a room thread's CPU over fMP4 at
 * 20 rooms (perf, docs/performance.md "Tenth pass"). The prebuilt binary folds with carry-less multiplies, about
 * 2.7x as fast here. It ships for the common platforms; anywhere else the same values come from zlib.
 */

export type Crc32 = (data: Uint8Array, previous?: number) => number;

interface NativeCrc {
  crc32(input: Uint8Array, initialState?: number | null): number;
}

function loadNative(): Crc32 | null {
  try {
    const native = createRequire(import.meta.url)('@node-rs/crc32') as NativeCrc;
    const fn: Crc32 = (data, previous = 0) => native.crc32(data, previous);
    // A binary that loads but computes something else must never reject good segments.
    return fn(new Uint8Array([0x31, 0x32, 0x33])) === 0x884863d2 ? fn : null;
  } catch {
    return null;
  }
}

const native = loadNative();

/** Which code computes segment CRCs (for tests and diagnostics). */
export const crc32Implementation: 'native' | 'zlib' = native ? 'native' : 'zlib';

/** CRC-32 of `data`, continuing from `previous` (the CRC of the bytes before it), as zlib.crc32. */
export const crc32: Crc32 = native ?? ((data, previous = 0) => zlibCrc32(data, previous));
