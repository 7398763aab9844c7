// `npm run soak -- [--part NAME] --seed S --steps N [--run-length L] [--keep-going] [--minutes M] [--only-run K] [--parallel P] [--decode frames|packets]`: long model runs; a part is one soak (more can be added).
import { parseArgs } from 'node:util';
import { soakLifecycle, type SoakOptions } from './soak-lifecycle.js';
import { tally } from './scenario.js';
import { toleratedSummary } from './known-defects.js';

/** The soak parts: each runs `steps` commands from `seed` and says whether every invariant held. */
export const SOAK_PARTS: Record<string, (o: SoakOptions) => Promise<{ ok: boolean; steps: number }>> = {
  lifecycle: soakLifecycle,
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      part: { type: 'string', default: 'lifecycle' },
      seed: { type: 'string' },
      steps: { type: 'string', default: '200' },
      'run-length': { type: 'string' },
      'keep-going': { type: 'boolean', default: false },
      minutes: { type: 'string' },
      'only-run': { type: 'string' },
      parallel: { type: 'string', default: '1' },
      decode: { type: 'string', default: 'frames' },
    },
  });
  const part = SOAK_PARTS[values.part!];
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  const steps = Number(values.steps);
  const runLength = values['run-length'] === undefined ? undefined : Number(values['run-length']);
  const parallel = Number(values.parallel);
  // The ffprobe invariant decodes every frame of every closed file here (`--decode packets`: as `npm test` does).
  process.env.LIVEREC_MODEL_DECODE = values.decode;
  if (!part || !Number.isInteger(seed) || !Number.isInteger(steps) || steps < 1 || (runLength !== undefined && !(runLength >= 1)) || !(Number.isInteger(parallel) && parallel >= 1) || !['frames', 'packets'].includes(values.decode!)) {
    console.error(`usage: npm run soak -- [--part ${Object.keys(SOAK_PARTS).join('|')}] [--seed S] [--steps N] [--run-length L] [--keep-going] [--minutes M] [--only-run K] [--parallel P] [--decode frames|packets]`);
    process.exit(2);
  }
  const t0 = Date.now();
  console.log(`soak ${values.part}: seed ${seed}, steps ${steps}${runLength ? `, run length ${runLength}` : ''}${parallel > 1 ? `, ${parallel} runs at a time` : ''}`);
  const result = await part({ seed, steps, runLength, keepGoing: values['keep-going'], minutes: values.minutes === undefined ? undefined : Number(values.minutes), onlyRun: values['only-run'] === undefined ? undefined : Number(values['only-run']), parallel, log: (l) => console.log(l) });
  const kinds = [...tally.byKind].map(([k, n]) => `${k} ${n}`).join(', ');
  console.log(`soak ${values.part} seed ${seed}: ${result.ok ? 'every invariant held' : 'FAILED'}; ${result.steps} commands run in ${tally.runs} run(s), ${Math.round((Date.now() - t0) / 1000)} s (${kinds})`);
  const pending = toleratedSummary();
  if (pending) console.log(pending);
  process.exit(result.ok ? 0 : 1);
}

void main();
