// Runs a command as a child process and measures its CPU time and peak RSS from /proc (Linux only).
import { spawn } from 'node:child_process';
import { clockTicks, hwmKiB, statFields } from './proc.js';

export interface Measurement {
  userS: number;
  sysS: number;
  cpuS: number;
  /** Peak resident set (VmHWM) in MiB. */
  peakRssMiB: number;
  wallS: number;
  code: number;
  stderr: string;
}

/**
 * A `bash` wrapper starts the command, reports its pid on fd 3 (so VmHWM can be polled while it runs), waits for
 * it, then prints its children's CPU time with the `times` builtin: after `wait` that is exactly the command's,
 * from getrusage (millisecond precision; /proc's cutime/cstime, kept as the fallback, count 10-ms ticks, 5 % of
 * a 0.2-s repair).
 */
export function measure(cmd: string, args: string[]): Promise<Measurement> {
  const script = '"$@" & c=$!; echo "pid $c" >&3; wait "$c"; s=$?; echo "stat $(cat /proc/$$/stat)" >&3; echo times >&3; times >&3; exit $s';
  const started = process.hrtime.bigint();
  const child = spawn('bash', ['-c', script, 'bash', cmd, ...args], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  let pid = 0;
  let hwm = 0;
  let stat = '';
  let stderr = '';
  let fd3 = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdio[3]!.on('data', (d: Buffer) => {
    fd3 += d.toString();
    for (const line of fd3.split('\n')) {
      if (line.startsWith('pid ')) pid = Number(line.slice(4));
      if (line.startsWith('stat ')) stat = line.slice(5);
    }
  });
  const poll = setInterval(() => {
    if (pid) hwm = Math.max(hwm, hwmKiB(pid) ?? 0);
  }, 10);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(poll);
      const fields = statFields(stat);
      const hz = clockTicks();
      const precise = childTimes(fd3);
      const userS = precise?.userS ?? Number(fields[13]) / hz;
      const sysS = precise?.sysS ?? Number(fields[14]) / hz;
      resolve({ userS, sysS, cpuS: userS + sysS, peakRssMiB: hwm / 1024, wallS: Number(process.hrtime.bigint() - started) / 1e9, code: code ?? -1, stderr });
    });
  });
}

/** The children's line of bash's `times` output after the `times` marker ("0m0.085s 0m0.120s"), or null. */
function childTimes(fd3: string): { userS: number; sysS: number } | null {
  const lines = fd3.split('\n');
  const at = lines.indexOf('times');
  const m = at >= 0 ? /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/.exec(lines[at + 2] ?? '') : null;
  if (!m) return null;
  return { userS: Number(m[1]) * 60 + Number(m[2]), sysS: Number(m[3]) * 60 + Number(m[4]) };
}
