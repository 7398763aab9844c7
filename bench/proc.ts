// Reads CPU time and memory of running processes from /proc (Linux only); shared by the benchmarks.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticks = 0;

/** Kernel clock ticks per second (the unit of utime/stime in /proc/<pid>/stat). */
export function clockTicks(): number {
  if (!ticks) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

/** The fields of a /proc/<pid>/stat line after `(comm)`: index 0 is the state, 11 utime, 12 stime, 13 cutime, 14 cstime. */
export function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).trim().split(' ');
}

function statusKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+)\\s*kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** Peak resident set so far (VmHWM) in KiB, or null when the process is gone. */
export const hwmKiB = (pid: number): number | null => statusKiB(pid, 'VmHWM');

/** Current resident set (VmRSS) in KiB, or null when the process is gone. */
export const rssKiB = (pid: number): number | null => statusKiB(pid, 'VmRSS');

/**
 * User + system CPU seconds the process has used so far, all of its threads included (the process-level
 * stat line sums every thread; reaped children are not included). Null when the process is gone.
 */
export function cpuSeconds(pid: number): number | null {
  try {
    const f = statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    return (Number(f[11]) + Number(f[12])) / clockTicks();
  } catch {
    return null;
  }
}

/**
 * Proportional set size in KiB (/proc/<pid>/smaps_rollup): shared pages split between the processes that map
 * them, so summing it over N copies of one program does not count the program N times. Null when unreadable.
 */
export function pssKiB(pid: number): number | null {
  try {
    const m = /^Pss:\s+(\d+)\s*kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** CPU seconds and resident set summed over a group of processes at one instant. */
export interface ProcSample {
  /** performance.now() of the reading. */
  t: number;
  cpuS: number;
  rssKiB: number;
  /** How many of the processes were still there. */
  alive: number;
  /** Busy CPU seconds of the whole machine (every process, every core) at the same instant. */
  machineS: number;
}

export function sampleProcs(pids: readonly number[], t: number): ProcSample {
  let cpuS = 0;
  let rss = 0;
  let alive = 0;
  for (const pid of pids) {
    const c = cpuSeconds(pid);
    const r = rssKiB(pid);
    if (c === null || r === null) continue;
    cpuS += c;
    rss += r;
    alive++;
  }
  return { t, cpuS, rssKiB: rss, alive, machineS: machineBusySeconds() };
}

/** CPU seconds the whole machine has spent busy (all cores, everything but idle and iowait) since boot, from /proc/stat. */
export function machineBusySeconds(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already inside user)
  const busy = v[0]! + v[1]! + v[2]! + v[5]! + v[6]! + v[7]!;
  return busy / clockTicks();
}
