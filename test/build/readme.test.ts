// README is a manual of bounded size whose set-up commands are the ones CI runs, and whose links lead somewhere.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/paths.js';

const read = (p: string): string => readFileSync(join(packageRoot, p), 'utf8');

describe('README and docs', () => {
  it('stay within their sizes (README 20 KB, docs/performance.md 15 KB)', () => {
    expect(statSync(join(packageRoot, 'README.md')).size).toBeLessThanOrEqual(20_000);
    expect(statSync(join(packageRoot, 'docs', 'performance.md')).size).toBeLessThanOrEqual(15_000);
  });

  it('keeps the two set-up commands of a fresh clone, and CI runs exactly the install and the test one', () => {
    const blocks = [...read('README.md').matchAll(/^ {4}(npm .+)$/gm)].map((m) => m[1]);
    expect(blocks.slice(0, 2)).toEqual(['npm ci && npm run demo', 'npm test']);
    const ci = read('.ci/run').split('\n').filter((l) => /^npm /.test(l));
    expect(ci).toEqual(['npm ci', 'npm test']);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.demo).toMatch(/liverec\.cjs demo$/);
  });

  it('links only to files that exist', () => {
    for (const doc of ['README.md', 'docs/performance.md']) {
      const base = doc.includes('/') ? 'docs' : '';
      for (const [, target] of read(doc).matchAll(/\]\(([^)#:]+)(#[^)]*)?\)/g)) {
        expect(existsSync(join(packageRoot, base, target!)), `${doc} → ${target}`).toBe(true);
      }
    }
  });

  it('names the Dockerfile install step that the release-package test runs', () => {
    const docker = read('Dockerfile');
    expect(docker).toMatch(/RUN npm install -g --prefix \/usr\/local --offline --no-audit --no-fund \/tmp\/liverec\.tgz/);
    expect(read('test/build/release-package.test.ts')).toContain("['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball]");
    expect(docker).toMatch(/HEALTHCHECK .*healthcheck/);
    expect(docker).toMatch(/VOLUME \/rec/);
    expect(docker).toMatch(/EXPOSE 2356/);
  });
});
