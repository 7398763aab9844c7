// The `liverec` launcher: the build's code cache is used, and a stale, corrupt or missing one only costs speed.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEntry, packageRoot, workerPath } from '../../src/paths.js';
import { VERSION } from '../../src/version.js';

const tmp = mkdtempSync(join(tmpdir(), 'liverec-launch-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** `liverec --version` through the launcher at `entry`, with its report on the cache. */
function version(entry: string, env: Record<string, string> = {}, args = ['--version']): { stdout: string; cache: string; status: number | null } {
  const r = spawnSync(process.execPath, [entry, ...args], { encoding: 'utf8', env: { ...process.env, LIVEREC_REPORT_CODE_CACHE: '1', ...env } });
  return { stdout: r.stdout.trim(), cache: /code cache (\w+)/.exec(r.stderr)?.[1] ?? r.stderr, status: r.status };
}

/** Changes one character of the bundle's description: the same length, so only the content hash can tell. */
function editSameLength(file: string): void {
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf('A live-stream recorder');
  expect(at).toBeGreaterThan(0);
  writeFileSync(file, `${text.slice(0, at)}a${text.slice(at + 1)}`);
}

/** A copy of the built launcher, bundle and cache in a package of its own, timestamps kept (the cache names the bundle's mtime). */
function copyOfBuild(name: string): string {
  const dir = join(tmp, name, 'dist', 'cli');
  cpSync(dirname(cliEntry), dir, { recursive: true, preserveTimestamps: true });
  cpSync(join(packageRoot, 'package.json'), join(tmp, name, 'package.json'));
  return dir;
}

describe('launcher code cache', () => {
  it('the built command runs from the cache made by the build', () => {
    expect(version(cliEntry)).toEqual({ stdout: VERSION, cache: 'used', status: 0 });
  });

  it('tool commands run from the tool bundle and its own cache', () => {
    const r = version(cliEntry, {}, ['tool', '--version']);
    expect(r).toEqual({ stdout: VERSION, cache: 'used', status: 0 });
    const dir = copyOfBuild('tool-stale');
    const tool = join(dir, 'tool.cjs');
    editSameLength(tool);
    utimesSync(tool, new Date(), new Date(Date.now() - 60_000));
    expect(version(join(dir, 'liverec.cjs'), {}, ['tool', '--version']).cache).toBe('absent');
    expect(version(join(dir, 'liverec.cjs')).cache).toBe('used');
  });

  it('a copy that keeps timestamps keeps its cache', () => {
    expect(version(join(copyOfBuild('copy'), 'liverec.cjs'))).toEqual({ stdout: VERSION, cache: 'used', status: 0 });
  });

  it('ignores a cache made for another bundle (same size, other text, changed mtime) and still runs', () => {
    const dir = copyOfBuild('stale');
    const file = join(dir, 'command.cjs');
    editSameLength(file);
    utimesSync(file, new Date(), new Date(Date.now() - 60_000));
    expect(version(join(dir, 'liverec.cjs'))).toEqual({ stdout: VERSION, cache: 'absent', status: 0 });
  });

  it('keeps the cache of an unchanged bundle whose mtime changed (npm\'s install of the release package)', () => {
    const dir = copyOfBuild('installed');
    utimesSync(join(dir, 'command.cjs'), new Date(), new Date(Date.now() - 60_000));
    expect(version(join(dir, 'liverec.cjs'))).toEqual({ stdout: VERSION, cache: 'used', status: 0 });
  });

  it('runs when V8 rejects a corrupt cache, and without one', () => {
    const dir = copyOfBuild('corrupt');
    const file = join(dir, 'command.cjs.cache');
    const raw = readFileSync(file);
    const body = raw.indexOf(10) + 1;
    for (let i = body + 16; i < raw.length; i += 97) raw[i] ^= 0x5a;
    writeFileSync(file, raw);
    expect(version(join(dir, 'liverec.cjs'))).toEqual({ stdout: VERSION, cache: 'rejected', status: 0 });
    rmSync(file);
    expect(version(join(dir, 'liverec.cjs'))).toEqual({ stdout: VERSION, cache: 'absent', status: 0 });
  });
});

describe('bundles', () => {
  // A directive after any other statement is an inert string: the code would run in sloppy mode (slower, and
  // without the errors strict mode gives), as it once did behind the import.meta.url banner.
  it('every script opens in strict mode', () => {
    const cli = dirname(cliEntry);
    const scripts = [...readdirSync(cli).filter((f) => f.endsWith('.cjs')).map((f) => join(cli, f)), ...['room', 'tool', 'template'].map(workerPath)];
    expect(scripts.length).toBe(6);
    // After a shebang (the launcher) or inside the command's wrapping function expression (scripts/bundle-cli.mjs).
    for (const file of scripts) expect(readFileSync(file, 'utf8'), file).toMatch(/^(#![^\n]*\n|\(typeof module[^\n]*\{\n)?"use strict";/);
  });
});
