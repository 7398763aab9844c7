// `npm run soak:front-door -- --heads N --seed S`: the front door's differential fuzz (front-door-diff.ts) at any length.
import { parseArgs } from 'node:util';
import { differential, generateHeads } from './front-door-diff.js';

const { values } = parseArgs({ options: { heads: { type: 'string', default: '1000000' }, seed: { type: 'string' }, chunk: { type: 'string', default: '100000' } } });
const total = Number(values.heads);
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const chunk = Number(values.chunk);
if (!Number.isInteger(total) || total < 1 || !Number.isInteger(seed) || !Number.isInteger(chunk) || chunk < 1) {
  process.stderr.write('usage: npm run soak:front-door -- [--heads N] [--seed S] [--chunk C]\n');
  process.exit(2);
}
const started = Date.now();
let accepted = 0;
let mismatches: string[] = [];
// In chunks of generated heads (seed + chunk index), so memory stays flat however many heads are asked for.
for (let done = 0, k = 0; done < total; done += chunk, k++) {
  const r = await differential(generateHeads(seed + k, Math.min(chunk, total - done)));
  accepted += r.accepted;
  mismatches = mismatches.concat(r.mismatches);
  process.stdout.write(`${Math.min(done + chunk, total)} heads, ${accepted} accepted, ${mismatches.length} mismatches, ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  if (mismatches.length > 0) break;
}
for (const m of mismatches) process.stdout.write(`MISMATCH ${m}\n`);
process.stdout.write(`front door soak: seed ${seed}, ${total} heads, ${accepted} accepted, ${mismatches.length === 0 ? 'HELD' : 'BROKEN'}\n`);
process.exit(mismatches.length === 0 ? 0 : 1);
