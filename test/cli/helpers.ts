// Spawns the compiled CLI and waits for lines on its stdout or stderr.
import { spawn, type ChildProcess } from 'node:child_process';
import { cliEntry } from '../../src/paths.js';

export const cli = cliEntry;

export interface CliProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the first match of `re` on the stream, polling up to `timeoutMs`. */
  waitFor(stream: 'stdout' | 'stderr', re: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exit: Promise<{ code: number | null; signal: string | null }>;
}

export function startCli(args: string[], env: Record<string, string | undefined> = {}): CliProcess {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LIVEREC_LOG_LEVEL: undefined, ...env } });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  let exited = false;
  void exit.then(() => (exited = true));
  return {
    child, exit, stdout: () => out, stderr: () => err,
    async waitFor(stream, re, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const m = (stream === 'stdout' ? out : err).match(re);
        if (m) return m;
        if (exited || Date.now() > deadline) {
          throw new Error(`no ${re} on ${stream} (exited: ${exited})\nstdout: ${out}\nstderr: ${err.slice(-3000)}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}

/** Runs the CLI to its end. */
export async function runCli(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const p = startCli(args, env);
  const { code } = await p.exit;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

/** pino JSON lines of a stderr capture (other lines skipped). */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text.split('\n').flatMap((l) => {
    try {
      const v = JSON.parse(l) as unknown;
      return v && typeof v === 'object' ? [v as Record<string, unknown>] : [];
    } catch {
      return [];
    }
  });
}
