#!/usr/bin/env node
// The `liverec` executable: runs the bundled command (dist/cli/command.cjs, or tool.cjs for `tool`) with the V8 code cache made at build time.
//
// Why a CommonJS script behind a code cache: Node 20 has no compile cache for user code, and loading the command as
// ES module chunks cost 0.070 CPU-s for `tool fix` of a small file and 0.43 for `liverec run --help`. One CommonJS
// script cost 0.050 and 0.29; with the bytecode of the build's warm-up run (scripts/bundle-cli.mjs), 0.04 and 0.28.
// This launcher is CommonJS too: an ES module entry alone added ~8 ms to every start.
import { closeSync, fstatSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import vm from 'node:vm';

/** Set by the build's warm-up run: register every command family, then write the cache at exit. */
const WRITE_ENV = 'LIVEREC_WRITE_CODE_CACHE';
/** Reports on stderr whether the cache was used (tests and diagnosis). */
const REPORT_ENV = 'LIVEREC_REPORT_CODE_CACHE';

interface BundleExports {
  main(argv: readonly string[], options?: { allFamilies?: boolean }): Promise<void>;
}

/** The bundle: a CommonJS module body as a function (scripts/bundle-cli.mjs, WRAP_OPEN). */
type ModuleBody = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;

// `liverec tool …` runs the tool family's own bundle (src/cli/tool-main.ts): a repair then deserializes and
// initialises only what it uses, about half the code (2-3 ms less CPU per `tool fix`, measured on a 1.5 MB file).
const bundle = join(__dirname, process.argv[2] === 'tool' ? 'tool.cjs' : 'command.cjs');
const cacheFile = `${bundle}.cache`;

/** What a cache file's first line says about the bundle it was made from. */
interface CacheStamp {
  size: number;
  mtimeMs: number;
  node: string;
  /** SHA-256 of the bundle's text: npm's install of the release package gives every file a new mtime. */
  sha256?: string;
}

const sha256 = (text: string): string => (require('node:crypto') as typeof import('node:crypto')).createHash('sha256').update(text).digest('hex');

/**
 * The cached bytecode, or undefined. V8 checks its own version and flags but, of the source, only its length; so
 * the file starts with a line naming the bundle's size, mtime and hash and the Node version, checked here. The
 * mtime may differ by under a millisecond: copies that keep timestamps (cpSync's preserveTimestamps) round finer
 * ones. Another mtime costs a hash of the text (~2 ms), once per start: an installed release package has it.
 */
function readCache(now: CacheStamp, source: string): Buffer | undefined {
  let raw: Buffer;
  let made: Partial<CacheStamp>;
  try {
    raw = readFileSync(cacheFile);
    made = JSON.parse(raw.toString('latin1', 0, Math.max(0, raw.indexOf(10)))) as Partial<CacheStamp>;
  } catch {
    return undefined;
  }
  if (made.size !== now.size || made.node !== now.node) return undefined;
  const same = Math.abs((made.mtimeMs ?? NaN) - now.mtimeMs) < 1 || (made.sha256 !== undefined && made.sha256 === sha256(source));
  return same ? raw.subarray(raw.indexOf(10) + 1) : undefined;
}

/** Compiles the bundle with the cached bytecode (or, when warming up, records it at exit) and returns its exports. */
function load(writing: boolean): BundleExports {
  const fd = openSync(bundle, 'r');
  const st = fstatSync(fd);
  const stamp: CacheStamp = { size: st.size, mtimeMs: st.mtimeMs, node: process.version };
  const source = readFileSync(fd, 'utf8');
  closeSync(fd);
  const cachedData = writing ? undefined : readCache(stamp, source);
  if (writing) stamp.sha256 = sha256(source);
  // Release builds of V8 neither write nor check a code cache's checksum, and a damaged cache is a fatal error
  // (a crash in the deserializer, tried). With this flag on while a cache is made and while it is read, a damaged
  // one is rejected instead. It is turned off again at once: every worker isolate started with it on would verify
  // Node's own start-up snapshot (~10 ms of CPU per thread).
  setFlagsFromString('--verify-snapshot-checksum');
  // The bundle has no import(): scripts/bundle-cli.mjs turns those into require (see dynamicImportsAsRequire).
  const script = new vm.Script(source, { filename: bundle, cachedData });
  setFlagsFromString('--no-verify-snapshot-checksum');
  if (process.env[REPORT_ENV] === '1') {
    process.stderr.write(`liverec: code cache ${cachedData === undefined ? 'absent' : script.cachedDataRejected ? 'rejected' : 'used'}\n`);
  }
  if (writing) {
    process.on('exit', () => {
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      setFlagsFromString('--verify-snapshot-checksum');
      writeFileSync(tmp, Buffer.concat([Buffer.from(`${JSON.stringify(stamp)}\n`, 'latin1'), script.createCachedData()]));
      renameSync(tmp, cacheFile);
    });
  }
  return run(script.runInThisContext() as ModuleBody);
}

function run(body: ModuleBody): BundleExports {
  const mod = { exports: {} as BundleExports };
  body(mod.exports, createRequire(bundle), mod, bundle, dirname(bundle));
  return mod.exports;
}

const writing = process.env[WRITE_ENV] === '1';
// Node maps stack traces (--enable-source-maps) only for files its own loaders read, so then it loads the bundle.
const command = process.sourceMapsEnabled && !writing ? run(require(bundle) as ModuleBody) : load(writing);
void command.main(process.argv, { allFamilies: writing });
