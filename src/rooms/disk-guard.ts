// Free-space guard of a recording session: no new file below MinFreeSpaceMB, and a full disk is waited out, not retried.
import { statfsSync } from 'node:fs';
import { LiverecError } from '../errors.js';

const MIB = 1024 * 1024;

/** Free bytes for unprivileged writers on the file system holding `dir`; null if it cannot be asked. */
export function freeBytes(dir: string): number | null {
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return null;
  }
}

/** Whether an error (or any error in its cause chain) means the disk is full. */
export function isDiskFull(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === 'DISK_FULL' || code === 'ENOSPC' || code === 'EDQUOT') return true;
  }
  return false;
}

export class DiskGuard {
  /** After ENOSPC: free space must grow past this before recording resumes (a guard of 0 must not mean a retry loop). */
  private resumeAbove = 0;

  constructor(private readonly dir: string, private readonly minFreeMb: () => number) {}

  /** Bytes recording needs free before it opens a file. */
  private get needed(): number {
    return Math.max(this.minFreeMb() * MIB, this.resumeAbove);
  }

  /** Whether a new file may be opened now. */
  hasRoom(): boolean {
    const free = freeBytes(this.dir);
    if (free === null || free >= this.needed) {
      this.resumeAbove = 0;
      return true;
    }
    return false;
  }

  /** Throws DISK_FULL (before any FileOpening) when a new file must not be opened. */
  assertRoom(): void {
    if (!this.hasRoom()) {
      throw new LiverecError('DISK_FULL', `less than ${Math.ceil(this.needed / MIB)} MiB free in ${this.dir} (MinFreeSpaceMB)`);
    }
  }

  /** A write failed with ENOSPC: wait until at least 1 MiB more than now is free. */
  noteFull(): void {
    this.resumeAbove = (freeBytes(this.dir) ?? 0) + MIB;
  }
}
