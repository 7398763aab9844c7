// Vitest file order for a clean clone (no timing cache there): the longest files start first, so none of them is
// the tail that keeps the whole suite running after the other workers are done.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Files that take 40 s or more (clean-clone run of 2026-11-28 at load ~10), longest first. */
const SLOW_FIRST = [
  'test/model/room-lifecycle.model.test.ts',
  'test/cluster/cluster-detector.test.ts',
  'test/flv/fast-path.test.ts',
  'test/detect/fast-start.test.ts',
  'test/build/release-package.test.ts',
  'test/hardening/hostile-memory.test.ts',
  'test/rooms/cutting.test.ts',
  'test/webhook/burst.test.ts',
  'test/cluster/cluster.test.ts',
  'test/cli/misconfiguration.test.ts',
  'test/rooms/special-rooms.test.ts',
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
