// Reads CPU time and memory of running processes from /proc (Linux only); shared by the benchmarks.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

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
  const s = cpuSplit(pid);
  return s === null ? null : s.userS + s.sysS;
}

/** User and system CPU seconds apart (system time carries the kernel's copies into the page cache and sockets). */
export function cpuSplit(pid: number): { userS: number; sysS: number } | null {
  try {
    const f = statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    return { userS: Number(f[11]) / clockTicks(), sysS: Number(f[12]) / clockTicks() };
  } catch {
    return null;
  }
}

/** User and system CPU seconds of the process's main thread alone (/proc/<pid>/task/<pid>/stat); null when gone. */
export function mainThreadCpuSplit(pid: number): { userS: number; sysS: number } | null {
  try {
    const f = statFields(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8'));
    return { userS: Number(f[11]) / clockTicks(), sysS: Number(f[12]) / clockTicks() };
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
  /** The user part of cpuS (the rest is system time). */
  userS: number;
  rssKiB: number;
  /** How many of the processes were still there. */
  alive: number;
  /** CPU seconds of every process on the machine, and of the benchmark itself, at the same instant (see machineFigures). */
  machineS: number;
  benchS: number;
}

export function sampleProcs(pids: readonly number[], t: number): ProcSample {
  let cpuS = 0;
  let userS = 0;
  let rss = 0;
  let alive = 0;
  for (const pid of pids) {
    const c = cpuSplit(pid);
    const r = rssKiB(pid);
    if (c === null || r === null) continue;
    cpuS += c.userS + c.sysS;
    userS += c.userS;
    rss += r;
    alive++;
  }
  return { t, cpuS, userS, rssKiB: rss, alive, machineS: allProcessesCpuSeconds(), benchS: selfCpuSecondsWithChildren() };
}

/**
 * CPU seconds used so far by every process on the machine: utime + stime + cutime + cstime summed over /proc/<pid>
 * (the children's fields keep the CPU of processes that exited and were reaped). Per-process accounting is exact,
 * unlike /proc/stat's tick-sampled busy time, which misses the short wake-ups of event loops on tickless kernels.
 */
export function allProcessesCpuSeconds(): number {
  let ticks = 0;
  for (const name of readdirSync('/proc')) {
    if (name.charCodeAt(0) > 57) continue; // not a pid
    try {
      const f = statFields(readFileSync(`/proc/${name}/stat`, 'utf8'));
      ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    } catch {
      // exited between readdir and read
    }
  }
  return ticks / clockTicks();
}

/** This process's own CPU including reaped children (the benchmark itself, so it is not counted as other work). */
export function selfCpuSecondsWithChildren(): number {
  const f = statFields(readFileSync('/proc/self/stat', 'utf8'));
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / clockTicks();
}
