// Writes src/flv/wasm-hash-bytes.ts from the compiled assembler (dist/src/flv/wasm-hash.js).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assemble } from '../dist/src/flv/wasm-hash.js';

const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'flv', 'wasm-hash-bytes.ts');
const head = readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('//')).join('\n');
const b64 = (simd) => Buffer.from(assemble(simd)).toString('base64');
writeFileSync(file, `${head}\nexport const HASH_MODULE_SIMD =\n  '${b64(true)}';\nexport const HASH_MODULE_SCALAR =\n  '${b64(false)}';\n`);
