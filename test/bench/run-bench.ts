// Runs `dist/bench/run.js` as a child process with the given arguments and environment; resolves its exit code and output.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../src/paths.js';

export const runJs = join(packageRoot, 'dist', 'bench', 'run.js');
/** A committed H.264/AAC fixture: smoke runs serve it with --clip, so they encode nothing. */
export const smokeClip = join(packageRoot, 'test', 'fixtures', 'media', 'h264-aac.flv');

export function runBench(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [runJs, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}
