// The room-lifecycle part of `npm run soak`: one long random scenario (or several) from a seed, replayable exactly.
import fc from 'fast-check';
import { playScenario, scenarioArb, tally, type Scenario } from './scenario.js';

export interface SoakOptions {
  seed: number;
  /** Commands generated in all (some are skipped when the model says they do not apply). */
  steps: number;
  /** Commands per process lifetime (a fresh simulator and work directory each); default: all in one. */
  runLength?: number;
  log: (line: string) => void;
}

/** The scenarios a seed and step count make: the same ones every time (replay = the same arguments). */
export function soakScenarios(o: Pick<SoakOptions, 'seed' | 'steps' | 'runLength'>): Scenario[] {
  const length = Math.max(1, Math.min(o.runLength ?? o.steps, o.steps));
  const runs = Math.ceil(o.steps / length);
  return fc.sample(scenarioArb(length, length), { seed: o.seed, numRuns: runs });
}

export async function soakLifecycle(o: SoakOptions): Promise<{ ok: boolean; steps: number }> {
  const scenarios = soakScenarios(o);
  for (const [n, s] of scenarios.entries()) {
    o.log(`run ${n + 1}/${scenarios.length}: initially live ${s.initialLive.map(Number).join('')}, ${s.commands.length} commands`);
    try {
      await playScenario(s, o.log);
    } catch (err) {
      o.log(`FAILED in run ${n + 1} of seed ${o.seed} (steps ${o.steps}${o.runLength ? `, run length ${o.runLength}` : ''}):\n${(err as Error).message}`);
      o.log(`replay: npm run soak -- --seed ${o.seed} --steps ${o.steps}${o.runLength ? ` --run-length ${o.runLength}` : ''}`);
      return { ok: false, steps: tally.steps };
    }
  }
  return { ok: true, steps: tally.steps };
}
