// Room threads run at a lower CPU priority than the main thread, so the API stays responsive on a busy host.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Recording is throughput work (the kernel's socket buffers absorb short delays); the API on the main thread is
 * latency work. On Linux, setpriority() with a thread id renices just that thread; /proc/thread-self names it.
 * Elsewhere (or without /proc) this is a no-op. Returns whether the priority was changed.
 */
export function lowerThreadPriority(niceIncrement: number): boolean {
  if (niceIncrement <= 0) return false;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    setPriority(tid, niceIncrement);
    return true;
  } catch {
    return false;
  }
}
