// The room-lifecycle part of `npm run soak`: one long random scenario (or several) from a seed, replayable exactly.
import fc from 'fast-check';
import { playScenario, scenarioArb, tally, type Scenario } from './scenario.js';

export interface SoakOptions {
  seed: number;
  /** Commands generated in all (some are skipped when the model says they do not apply). */
  steps: number;
  /** Commands per process lifetime (a fresh simulator and work directory each); default: all in one. */
  runLength?: number;
  /** After a failing run, go on with the next one (a long soak reports every failure, not only the first). */
  keepGoing?: boolean;
  /** Play only this run (1-based) of the seed's runs: a failing run of a long soak replayed alone. */
  onlyRun?: number;
  /** No new run starts after this many minutes (the soak's summary still prints). */
  minutes?: number;
  /**
   * Runs played at once, each with its own simulator, process and work directory (default 1). A run mostly waits for
   * the system to settle, so a few at a time multiply the commands a soak plays in its minutes; the runs and their
   * commands stay the same (replay one with --only-run).
   */
  parallel?: number;
  log: (line: string) => void;
}

/** The scenarios a seed and step count make: the same ones every time (replay = the same arguments). */
export function soakScenarios(o: Pick<SoakOptions, 'seed' | 'steps' | 'runLength'>): Scenario[] {
  const length = Math.max(1, Math.min(o.runLength ?? o.steps, o.steps));
  const runs = Math.ceil(o.steps / length);
  return fc.sample(scenarioArb(length, length, true), { seed: o.seed, numRuns: runs });
}

export async function soakLifecycle(o: SoakOptions): Promise<{ ok: boolean; steps: number }> {
  const scenarios = soakScenarios(o);
  let failures = 0;
  let stopped = false;
  const stopAt = o.minutes ? Date.now() + o.minutes * 60_000 : Infinity;
  const queue = [...scenarios.entries()].filter(([n]) => o.onlyRun === undefined || n + 1 === o.onlyRun);
  const lanes = Math.max(1, Math.min(o.parallel ?? 1, queue.length));
  const lane = async (): Promise<void> => {
    for (let next = queue.shift(); next && !stopped; next = queue.shift()) {
      const [n, s] = next;
      if (Date.now() > stopAt) {
        o.log(`time is up: run ${n + 1} of ${scenarios.length} and later ones not started`);
        stopped = true;
        break;
      }
      // With several runs at once, every line names its run.
      const log = lanes > 1 ? (line: string): void => o.log(`[run ${n + 1}] ${line}`) : o.log;
      o.log(`run ${n + 1}/${scenarios.length}: initially live ${s.initialLive.map(Number).join('')}, ${s.commands.length} commands`);
      try {
        await playScenario(s, log);
      } catch (err) {
        o.log(`FAILED in run ${n + 1} of seed ${o.seed} (steps ${o.steps}${o.runLength ? `, run length ${o.runLength}` : ''}):\n${(err as Error).message}`);
        o.log(`replay: npm run soak -- --seed ${o.seed} --steps ${o.steps}${o.runLength ? ` --run-length ${o.runLength}` : ''} --only-run ${n + 1}`);
        failures++;
        if (!o.keepGoing) stopped = true;
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  if (failures) o.log(`${failures} of ${scenarios.length} run(s) failed`);
  return { ok: failures === 0, steps: tally.steps };
}
