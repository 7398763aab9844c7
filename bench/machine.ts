// A description of the machine a run happened on (for the results file and the README).
import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg, release, totalmem, type as osType } from 'node:os';
import { packageRoot } from '../src/paths.js';
import { VERSION } from '../src/version.js';

export interface Machine {
  cpuModel: string;
  cores: number;
  ramGiB: number;
  node: string;
  os: string;
  kernel: string;
  /** 1/5/15-minute load averages when the run started: other work on a shared machine shows here. */
  loadAverageAtStart: number[];
  liverecVersion: string;
  gitCommit: string | null;
}

function gitCommit(): string | null {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: packageRoot, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: packageRoot, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
    return dirty ? `${head}+local changes` : head;
  } catch {
    return null;
  }
}

export function describeMachine(): Machine {
  return {
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    cores: availableParallelism(),
    ramGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: osType(),
    kernel: release(),
    loadAverageAtStart: loadavg().map((l) => Math.round(l * 100) / 100),
    liverecVersion: VERSION,
    gitCommit: gitCommit(),
  };
}

export function machineLine(m: Machine): string {
  return `${m.cpuModel}, ${m.cores} cores, ${m.ramGiB} GiB RAM, ${m.os} ${m.kernel}, Node ${m.node}, liverec ${m.liverecVersion}${m.gitCommit ? ` (${m.gitCommit})` : ''}, load average at start ${m.loadAverageAtStart.join(' / ')}`;
}
