// Vitest file order for a clean clone (no timing cache there): the longest files start first, so none of them is
// the tail that keeps the whole suite running after the other workers are done.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Files that take 40 s or more (CI run of 2026-11-27), longest first; CPU-heavy ones alternate with waiting ones. */
const SLOW_FIRST = [
  'test/cluster/cluster-detector.test.ts',
  'test/rooms/cutting.test.ts',
  'test/cluster/cluster.test.ts',
  'test/rooms/origin-budget.test.ts',
  'test/hardening/hostile-memory.test.ts',
  'test/gaps/gap-reports.test.ts',
  'test/hardening/kill-storm.test.ts',
  'test/rooms/special-rooms.test.ts',
  'test/hardening-hostile/hls-cdn.test.ts',
];

const rank = (f: TestSpecification): number => {
  const path = f.moduleId.replaceAll('\\', '/');
  const i = SLOW_FIRST.findIndex((s) => path.endsWith(s));
  return i < 0 ? SLOW_FIRST.length : i;
};

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Array.prototype.sort is stable: the rest keep vitest's own order.
    return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b));
  }
}
