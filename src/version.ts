// The liverec version, read once from package.json so every User-Agent and API answer agree.
import { readFileSync } from 'node:fs';
import { packageRoot } from './paths.js';
import { join } from 'node:path';

export const VERSION: string = (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
