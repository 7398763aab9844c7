// Builds dist/ (tsc, the bundled command, the web UI) unless it was already built from exactly these sources.
// `npm ci` runs this as `prepare` (and `npm pack` as part of `prepack`), and so does `npx liverec …` the first time: npm links the checkout into its exec
// cache and runs `prepare` again. A content stamp lets that second run finish in well under a second instead of
// recompiling for half a minute. `--force` (used by `npm run build`) always builds.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const stampFile = join('dist', '.build-stamp');
// Everything the build reads. Fixtures, benchmark results and test screenshots are data, not build inputs.
const inputDirs = ['src', 'workers', 'bench', 'test', 'scripts', 'web'];
const skipDirs = new Set([join('test', 'fixtures'), join('bench', 'results'), join('test', 'web', 'screenshots')]);
const inputFiles = ['package.json', 'package-lock.json', 'tsconfig.json'];
const requiredOutputs = [join('dist', 'cli', 'liverec.cjs'), join('dist', 'cli', 'command.cjs'), join('dist', 'cli', 'tool.cjs'), join('dist', 'src'), join('dist', 'web', 'index.html')];

function listFiles(root, dir, out) {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const rel = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skipDirs.has(rel) && entry.name !== 'node_modules') listFiles(root, rel, out);
    } else if (entry.isFile()) {
      out.push(rel);
    }
  }
  return out;
}

/** A hash of every build input's path and content, in a fixed order. */
export function sourceStamp(root = packageRoot) {
  const files = inputFiles.filter((f) => existsSync(join(root, f)));
  for (const dir of inputDirs) if (existsSync(join(root, dir))) listFiles(root, dir, files);
  files.sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(file.split('\\').join('/')).update('\0');
    hash.update(readFileSync(join(root, file))).update('\0');
  }
  return hash.digest('hex');
}

/** Whether dist/ holds a complete build stamped with exactly this source stamp. */
export function isFresh(stamp, root = packageRoot) {
  if (!requiredOutputs.every((p) => existsSync(join(root, p)))) return false;
  try {
    return readFileSync(join(root, stampFile), 'utf8').trim() === stamp;
  } catch {
    return false;
  }
}

function step(label, args) {
  const result = spawnSync(process.execPath, args, { cwd: packageRoot, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`liverec build: ${label} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
}

function build() {
  const tsc = createRequire(join(packageRoot, 'package.json')).resolve('typescript/bin/tsc');
  step('tsc', [tsc, '-p', 'tsconfig.json']);
  step('bundling the command', ['scripts/bundle-cli.mjs']);
  step('tsc (web UI)', [tsc, '-p', join('web', 'tsconfig.json')]);
  step('building the web UI', [join('web', 'build.mjs')]);
}

if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === '' && !existsSync(join(packageRoot, 'web'))) {
  // The installed release package ships dist/ built and none of its sources (web/ is one): nothing to build, no compiler.
  console.log('liverec: installed package, dist/ ships built');
} else if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === '') {
  const force = process.argv.includes('--force');
  const stamp = sourceStamp();
  if (!force && isFresh(stamp)) {
    console.log(`liverec: dist/ is up to date with the sources (${stampFile}), build skipped`);
  } else {
    rmSync(join(packageRoot, stampFile), { force: true });
    build();
    writeFileSync(join(packageRoot, stampFile), `${stamp}\n`);
    console.log('liverec: built dist/');
  }
}
