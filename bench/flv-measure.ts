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
 * A `sh` wrapper starts the command, reports its pid on fd 3 (so VmHWM can be polled while it runs),
 * waits for it, then prints its own /proc stat: after `wait`, the shell's cutime/cstime are exactly the
 * command's CPU time, read by the kernel when the child was reaped (no polling gap).
 */
export function measure(cmd: string, args: string[]): Promise<Measurement> {
  const script = '"$@" & c=$!; echo "pid $c" >&3; wait "$c"; s=$?; echo "stat $(cat /proc/$$/stat)" >&3; exit $s';
  const started = process.hrtime.bigint();
  const child = spawn('sh', ['-c', script, 'sh', cmd, ...args], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
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
      const userS = Number(fields[13]) / hz;
      const sysS = Number(fields[14]) / hz;
      resolve({ userS, sysS, cpuS: userS + sysS, peakRssMiB: hwm / 1024, wallS: Number(process.hrtime.bigint() - started) / 1e9, code: code ?? -1, stderr });
    });
  });
}
