// Locations inside the installed package that work the same from src/ (tests) and dist/ (installed).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`package.json not found above ${start}`);
    dir = parent;
  }
  return dir;
}

/** The folder holding liverec's package.json. */
export const packageRoot: string = findRoot(dirname(fileURLToPath(import.meta.url)));

/** The `liverec` executable as built (scripts/bundle-cli.mjs, from src/cli/launch.cts): what tests and benchmarks spawn. */
export const cliEntry: string = join(packageRoot, 'dist', 'cli', 'liverec.cjs');

/**
 * Bundled thread entry `dist/cli/workers/<name>.worker.cjs` (scripts/bundle-cli.mjs, from workers/<name>.worker.ts).
 * Workers always run the built JS (lean, no loader); tests build first (`npm test` runs tsc and the bundler),
 * so src-mode callers get current code too.
 */
export function workerPath(name: string): string {
  return join(packageRoot, 'dist', 'cli', 'workers', `${name}.worker.cjs`);
}
