// Environment settings that make every Node start-up slower on some machines, unrelated to liverec's own work.
/**
 * NODE_EXTRA_CA_CERTS makes Node parse a whole CA bundle at each process start, before any code runs
 * (about 60 ms of CPU for the system bundle on the 2-vCPU development VM, where it is set globally).
 * ffmpeg never reads it. Benchmarks of one short process remove it and say so; BENCH_KEEP_NODE_ENV=1 keeps it.
 */
export function removeStartupEnv(): string[] {
  if (process.env.BENCH_KEEP_NODE_ENV === '1') return [];
  const removed: string[] = [];
  for (const name of ['NODE_EXTRA_CA_CERTS']) {
    if (process.env[name] === undefined) continue;
    delete process.env[name];
    removed.push(name);
  }
  return removed;
}
