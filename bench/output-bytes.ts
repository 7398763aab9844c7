// Bytes a recorder has written so far: the sizes of every file under its output folder (both recorders, same way).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function outputBytes(dir: string): number {
  let sum = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    try {
      if (e.isDirectory()) sum += outputBytes(p);
      else if (e.isFile()) sum += statSync(p).size;
    } catch {
      // A file closed and renamed between readdir and stat: counted at the next read.
    }
  }
  return sum;
}

/** Bytes in and out over a recorder's whole phase: out / in compares what the two recorders kept of the same streams. */
export interface PhaseTotals {
  /** Bytes the simulator served to this recorder's connections during its phase. */
  inBytes: number;
  /** Bytes in the recorder's output files once it stopped. */
  outBytes: number;
  outOverIn: number;
}

export function phaseTotals(inBytes: number, outBytes: number): PhaseTotals {
  return { inBytes, outBytes, outOverIn: outBytes / Math.max(1, inBytes) };
}
