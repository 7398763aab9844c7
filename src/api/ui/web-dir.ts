// Where the built web UI lives: dist/web, found from this module whether it runs compiled (dist/) or from source.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder with index.html and the bundles, or null when `npm run build` has not built the UI. */
export function findWebDir(): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  // Compiled: dist/src/api/ui -> dist/web. From source (tests, tsx): src/api/ui -> <repo>/dist/web.
  const candidates = [resolve(here, '../../../web'), resolve(here, '../../../dist/web')];
  return candidates.find((dir) => dir.split(/[\\/]/).includes('dist') && existsSync(resolve(dir, 'index.html'))) ?? null;
}
