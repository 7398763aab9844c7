// The build stamp: `prepare` (npm ci, npx's first run) skips the build only when dist/ came from these exact sources.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isFresh, sourceStamp } from '../../scripts/prepare.mjs';

const tmp = mkdtempSync(join(tmpdir(), 'liverec-stamp-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function write(root: string, rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

/** A small project: sources, data that is not a build input, and a complete dist/. */
function project(name: string): string {
  const root = join(tmp, name);
  write(root, 'package.json', '{"name":"x"}');
  write(root, 'src/a.ts', 'export const a = 1;\n');
  write(root, 'web/main.tsx', 'export {};\n');
  write(root, 'test/fixtures/big.flv', 'FLV');
  write(root, 'bench/results/run.json', '{}');
  write(root, 'test/web/screenshots/ui.png', 'png');
  write(root, 'dist/cli/liverec.cjs', '');
  write(root, 'dist/cli/command.cjs', '');
  write(root, 'dist/cli/tool.cjs', '');
  write(root, 'dist/src/a.js', '');
  write(root, 'dist/web/index.html', '');
  return root;
}

describe('build stamp', () => {
  it('is stable, and changes with any source content or name', () => {
    const root = project('sources');
    const first = sourceStamp(root);
    expect(sourceStamp(root)).toBe(first);
    write(root, 'src/a.ts', 'export const a = 2;\n');
    const edited = sourceStamp(root);
    expect(edited).not.toBe(first);
    renameSync(join(root, 'src/a.ts'), join(root, 'src/b.ts'));
    expect(sourceStamp(root)).not.toBe(edited);
  });

  it('ignores fixtures, benchmark results and test screenshots', () => {
    const root = project('data');
    const before = sourceStamp(root);
    write(root, 'test/fixtures/big.flv', 'FLV2');
    write(root, 'bench/results/run-2.json', '{}');
    write(root, 'test/web/screenshots/ui.png', 'png2');
    expect(sourceStamp(root)).toBe(before);
  });

  it('calls dist/ fresh only when it is complete and stamped with the same sources', () => {
    const root = project('fresh');
    const stamp = sourceStamp(root);
    expect(isFresh(stamp, root)).toBe(false);
    write(root, 'dist/.build-stamp', `${stamp}\n`);
    expect(isFresh(stamp, root)).toBe(true);
    write(root, 'src/a.ts', 'export const a = 3;\n');
    expect(isFresh(sourceStamp(root), root)).toBe(false);
    write(root, 'dist/.build-stamp', `${sourceStamp(root)}\n`);
    rmSync(join(root, 'dist/web/index.html'));
    expect(isFresh(sourceStamp(root), root)).toBe(false);
  });

  it('the script skips the build of a fresh copy and leaves dist/ alone', () => {
    const root = project('script');
    write(root, 'scripts/prepare.mjs', '');
    copyFileSync(join(import.meta.dirname, '../../scripts/prepare.mjs'), join(root, 'scripts/prepare.mjs'));
    write(root, 'dist/.build-stamp', `${sourceStamp(root)}\n`);
    const run = spawnSync(process.execPath, [join(root, 'scripts/prepare.mjs')], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('build skipped');
    expect(readFileSync(join(root, 'dist/cli/liverec.cjs'), 'utf8')).toBe('');
  });

  it('the script builds nothing in an installed release package (no sources beside dist/)', () => {
    const root = project('installed');
    rmSync(join(root, 'web'), { recursive: true });
    rmSync(join(root, 'dist/cli/command.cjs'));
    write(root, 'scripts/prepare.mjs', '');
    copyFileSync(join(import.meta.dirname, '../../scripts/prepare.mjs'), join(root, 'scripts/prepare.mjs'));
    const run = spawnSync(process.execPath, [join(root, 'scripts/prepare.mjs')], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('installed package');
  });
});
