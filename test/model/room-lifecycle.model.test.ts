// The room lifecycle as a whole, model-based (fast-check): random journeys and faults against a real `liverec run`
// and the strict simulator, every invariant checked after every command (docs/testing.md).
import { appendFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toleratedSummary } from './known-defects.js';
import { playScenario, scenarioArb, tally } from './scenario.js';

/**
 * LIVEREC_MODEL_SEED (and LIVEREC_MODEL_PATH) replay a failure, as printed; LIVEREC_MODEL_SEED=random explores a new
 * seed. By default `npm test` plays a fixed seed, so a landing is judged on the same journeys every time: exploring
 * new seeds is the soak's job (`npm run soak`), whose open findings are listed in docs/testing.md.
 */
const FIXED_SEED = 2054054501;
const seedEnv = process.env.LIVEREC_MODEL_SEED;
const seed = seedEnv === 'random' ? Math.floor(Math.random() * 2 ** 31) : seedEnv ? Number(seedEnv) : FIXED_SEED;
const path = process.env.LIVEREC_MODEL_PATH;
/** The commands newer than the fixed seed join (scenario.ts exploreCommandArb): LIVEREC_MODEL_EXPLORE=1 or a random seed. */
const explore = process.env.LIVEREC_MODEL_EXPLORE === '1' || seedEnv === 'random';
const RUNS = 4;
/** Commands played per run: generated with room to spare, since about a third do not apply where they fall. */
const STEPS_PER_RUN = 38;
const MIN_COMMANDS = 75;
const MAX_COMMANDS = 80;
/** Each shrink step replays against a real process: after this long, the smallest failure found so far is reported. */
const SHRINK_BUDGET_MS = 150_000;
/** LIVEREC_MODEL_TRACE=file appends each command as it completes (a hang shows where it stopped). */
const trace = process.env.LIVEREC_MODEL_TRACE ? (line: string): void => appendFileSync(process.env.LIVEREC_MODEL_TRACE!, `${line}\n`) : undefined;

describe('the room lifecycle model', () => {
  it(`holds every invariant over random command sequences (seed ${seed})`, async () => {
    let firstFailureAt = 0;
    try {
      await fc.assert(
        fc.asyncProperty(scenarioArb(MIN_COMMANDS, MAX_COMMANDS, explore), async (s) => {
          // Past the budget, shrink candidates pass unplayed: fast-check keeps the smallest failure it has.
          if (firstFailureAt && Date.now() - firstFailureAt > SHRINK_BUDGET_MS) return;
          try {
            await playScenario(s, trace, STEPS_PER_RUN);
          } catch (err) {
            // The first failure is printed as found: shrinking replays a real process per step and may outlast the test.
            if (!firstFailureAt) console.log(`model: first failure (shrinking follows): ${(err as Error).message.slice(0, 4000)}`);
            firstFailureAt ||= Date.now();
            throw err;
          }
        }),
        {
          seed,
          path,
          numRuns: path ? 1 : RUNS,
          reporter: (details) => {
            if (!details.failed) return;
            throw new Error(
              `model failed: seed ${details.seed}, path ${details.counterexamplePath}, shrunk ${details.numShrinks} time(s)\n` +
              `${(details.errorInstance as Error | undefined)?.message ?? String(details.errorInstance)}\n` +
              `shrunk scenario (commands that did not apply were skipped): ${fc.stringify(details.counterexample)}\n` +
              `replay: ${explore ? 'LIVEREC_MODEL_EXPLORE=1 ' : ''}LIVEREC_MODEL_SEED=${details.seed} LIVEREC_MODEL_PATH=${details.counterexamplePath} npx vitest run test/model/room-lifecycle.model.test.ts`,
            );
          },
        },
      );
    } finally {
      console.log(`model: seed ${seed}, ${tally.steps} commands in ${tally.runs} run(s): ${[...tally.byKind].map(([k, n]) => `${k} ${n}`).join(', ')}`);
      const pending = toleratedSummary();
      if (pending) console.log(pending);
    }
    // The issue's floor: at least 150 commands across the runs (the arbitrary guarantees it; the count proves it).
    expect(tally.steps).toBeGreaterThanOrEqual(150);
  }, 600_000);
});
