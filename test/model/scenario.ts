// Random scenarios of the model test (fast-check arbitraries) and the runner that plays one against a fresh real system.
import fc from 'fast-check';
import {
  AddRoom, BatchStatus, GlobalSetting, HeaderChange, RE_ADD_WAIT_MS, RemoveRoom, Restart, Risk352, NestedApiAnswer, RoomCommand, RoomSetting,
  SetAutoRecord, SetLive, Split, StartStop, StreamLoss, type Via, Mark, Clip, WatchLive, LiveTogether,
} from './commands.js';
import { Login, Logout, NeedsRefresh } from './account-commands.js';
import { settle } from './invariants.js';
import { Model } from './model.js';
import { POOL, TIMING } from './pool.js';
import { RealSystem } from './real-system.js';

const room = fc.nat({ max: 1000 });
const via = fc.constantFrom<Via>('id', 'short', 'url');
/** Mostly on: the journeys that record are the ones with something to check. */
const autoRecord = fc.constantFrom(true, true, true, false);

/** Every command of the model, weighted toward the everyday journeys (add, live, offline, start, stop). */
export const commandArb: fc.Arbitrary<RoomCommand> = fc.oneof(
  { arbitrary: fc.tuple(room, via, autoRecord).map(([i, v, a]) => new AddRoom(i, v, a)), weight: 6 },
  { arbitrary: fc.tuple(room, via, autoRecord, fc.constantFrom(0, RE_ADD_WAIT_MS)).map(([i, v, a, w]) => new AddRoom(i, v, a, true, w)), weight: 3 },
  { arbitrary: room.map((i) => new RemoveRoom(i)), weight: 3 },
  { arbitrary: fc.tuple(room, fc.constantFrom<'start' | 'stop'>('start', 'stop')).map(([i, a]) => new StartStop(i, a)), weight: 4 },
  { arbitrary: room.map((i) => new Split(i)), weight: 2 },
  { arbitrary: room.map((i) => new SetAutoRecord(i)), weight: 2 },
  { arbitrary: fc.tuple(room, fc.constantFrom(true, false, null)).map(([i, v]) => new RoomSetting(i, v)), weight: 1 },
  { arbitrary: fc.boolean().map((v) => new GlobalSetting('DanmakuInstantDetect', v)), weight: 1 },
  { arbitrary: fc.constantFrom(TIMING.budgetPerMinute, 30).map((v) => new GlobalSetting('ApiBudgetPerMinute', v)), weight: 1 },
  { arbitrary: fc.tuple(room, fc.boolean()).map(([i, l]) => new SetLive(i, l)), weight: 8 },
  { arbitrary: room.map((i) => new StreamLoss(i, 'stream-cut')), weight: 2 },
  { arbitrary: fc.tuple(room, fc.integer({ min: 2, max: 4 })).map(([i, s]) => new StreamLoss(i, 'flv-outage', s)), weight: 1 },
  { arbitrary: room.map((i) => new HeaderChange(i)), weight: 1 },
  { arbitrary: fc.boolean().map((f) => new BatchStatus(f)), weight: 2 },
  { arbitrary: room.map((i) => new Risk352(i)), weight: 1 },
  { arbitrary: room.map((i) => new NestedApiAnswer(i)), weight: 1 },
  { arbitrary: fc.constantFrom<'SIGTERM' | 'SIGKILL'>('SIGTERM', 'SIGKILL').map((s) => new Restart(s)), weight: 1 },
  // Watch and clip (docs/clips.md).
  { arbitrary: fc.tuple(room, fc.boolean()).map(([i, open]) => new Mark(i, open)), weight: 2 },
  { arbitrary: room.map((i) => new Clip(i)), weight: 1 },
  { arbitrary: room.map((i) => new WatchLive(i)), weight: 1 },
);

/**
 * Account commands (docs/accounts.md): a QR login in the UI or by `liverec login` beside the service (more often: the
 * others need one), a refresh the service asks for, a logout elsewhere.
 */
export const accountCommandArb: fc.Arbitrary<RoomCommand> = fc.oneof(
  { arbitrary: fc.tuple(room, fc.boolean()).map(([i, cli]) => new Login(i, cli)), weight: 2 },
  { arbitrary: room.map((i) => new NeedsRefresh(i)), weight: 1 },
  { arbitrary: room.map((i) => new Logout(i)), weight: 1 },
);

/*
 * Commands added after the fixed seed of `npm test` was chosen: they play in exploration (LIVEREC_MODEL_EXPLORE=1,
 * LIVEREC_MODEL_SEED=random, the soak) and not in the fixed seed's journeys, which any new member of the pool would
 * change. Issue 48: several rooms going live at once under risk control. Joined to the fixed pool once the defect its
 * first exploration found is fixed (docs/testing.md).
 */
export const exploreCommandArb: fc.Arbitrary<RoomCommand> = fc.oneof(
  { arbitrary: commandArb, weight: 40 },
  { arbitrary: fc.constant(null).map(() => new LiveTogether()), weight: 1 },
);

export interface Scenario {
  initialLive: boolean[];
  commands: RoomCommand[];
  /**
   * Account commands in their order, each `gap` (modulo 12, plus one) room commands after the one before it. Drawn
   * after the others, so a seed's room journeys stay what they were before accounts joined the model (the fixed seed
   * judges every landing on them); they take their places in the run's fixed number of steps.
   */
  accounts?: [number, RoomCommand][];
}

export const scenarioArb = (minCommands: number, maxCommands: number, explore = false): fc.Arbitrary<Scenario> =>
  fc.record({
    initialLive: fc.array(fc.boolean(), { minLength: POOL.length, maxLength: POOL.length }),
    commands: fc.array(explore ? exploreCommandArb : commandArb, { minLength: minCommands, maxLength: maxCommands }),
    accounts: fc.array(fc.tuple(fc.nat({ max: 1000 }), accountCommandArb), { minLength: 3, maxLength: 6 }),
  });

/** The commands in the order they are played: the room commands with the account commands inserted. */
export function played(s: Scenario): RoomCommand[] {
  const out = [...s.commands];
  let at = -1;
  for (const [gap, c] of s.accounts ?? []) {
    at = Math.min(out.length, at + 2 + (gap % 12));
    out.splice(at, 0, c);
  }
  return out;
}

/** Totals over the runs of one test or soak: commands run, and by kind. */
export const tally = { steps: 0, runs: 0, byKind: new Map<string, number>() };

/** Plays `s` against a fresh simulator and liverec process; throws the first broken invariant with its story. */
export async function playScenario(s: Scenario, log: (line: string) => void = () => undefined, maxSteps = Infinity): Promise<number> {
  const real = new RealSystem();
  const model = new Model(s.initialLive);
  const done: string[] = [];
  try {
    await real.start(s.initialLive);
    await settle(model, real);
    const traced = played(s).map((c) => tracing(c, done, log, maxSteps));
    await fc.asyncModelRun(() => ({ model, real }), traced);
    return model.steps;
  } catch (err) {
    const e = err as Error;
    e.message = `${e.message}\n-- after commands: ${done.join('; ')}\n${real.story.join('\n')}\n--- liverec stderr tail:\n${real.proc?.stderr.slice(-3000) ?? ''}`;
    throw e;
  } finally {
    tally.steps += model.steps;
    tally.runs++;
    await real.close();
  }
}

/** Wraps a command so the runner knows what ran (the failure's story) and counts it. */
function tracing(c: RoomCommand, done: string[], log: (line: string) => void, maxSteps: number): fc.AsyncCommand<Model, RealSystem, false> {
  return {
    // Past maxSteps the rest of the scenario is skipped: a run plays a known number of commands.
    check: (m) => m.steps < maxSteps && c.check(m),
    run: async (m, r) => {
      const t0 = Date.now();
      log(`      … ${c.toString()}`);
      const at = done.push(c.toString()) - 1;
      try {
        await c.run(m, r);
      } finally {
        done[at] = c.toString(); // the room it picked is known once it ran
      }
      const kind = c.toString().replace(/\(.*$/, '');
      tally.byKind.set(kind, (tally.byKind.get(kind) ?? 0) + 1);
      log(`${String(m.steps).padStart(5)} ${c.toString()} (${Date.now() - t0} ms)`);
    },
    toString: () => c.toString(),
  };
}
