// Where the built web UI lives: dist/web under the package root, whether liverec runs bundled, compiled or from source.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../paths.js';

/** The folder with index.html and the bundles, or null when `npm run build` has not built the UI. */
export function findWebDir(): string | null {
  const dir = join(packageRoot, 'dist', 'web');
  return existsSync(join(dir, 'index.html')) ? dir : null;
}
