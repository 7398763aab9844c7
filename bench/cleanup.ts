// Owns every child process and temp dir the benchmark creates, and ends/removes them on exit, SIGINT, SIGTERM or error.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const children = new Set<ChildProcess>();
const dirs = new Set<string>();
let installed = false;

/** Registers a child so that no exit path leaves it running. */
export function track<T extends ChildProcess>(child: T): T {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** A fresh directory under the OS temp dir, removed when the benchmark ends however it ends. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.add(dir);
  return dir;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  dirs.delete(dir);
}

const exited = (c: ChildProcess): boolean => c.exitCode !== null || c.signalCode !== null;

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the child has exited. */
export function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (exited(child)) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function stopAll(graceMs = 10_000): Promise<void> {
  await Promise.all([...children].map((c) => stopChild(c, graceMs)));
}

/** Last resort on the synchronous 'exit' path: no waiting is possible, so kill outright. */
function killAllNow(): void {
  for (const c of children) if (!exited(c)) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}

/** Installs the signal and exit handlers once. */
export function installCleanup(): void {
  if (installed) return;
  installed = true;
  process.on('exit', killAllNow);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(sig, () => {
      process.stderr.write(`\nbench: ${sig}, stopping ${children.size} child process(es)\n`);
      void stopAll(3000).finally(() => process.exit(sig === 'SIGINT' ? 130 : 143));
    });
  }
}
