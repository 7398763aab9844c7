// Test runner settings: real servers, workers and files, so generous timeouts and no watch.
import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/support/slow-first-sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most suites wait on real-time streams, not the CPU. Four files at a time took 674 s in CI; five took 548 s on a
    // clean clone here (2 vCPU: 600 s user + 120 s system CPU, two thirds of what 2 cores give over that wall time).
    // Every test must pass on a busy machine anyway (the suite is run twice beside two busy loops).
    maxWorkers: 5,
    sequence: { sequencer: SlowFirstSequencer },
    reporters: ['default'],
    // The services under test log to the in-memory ring only (tests read it there); their lines would otherwise
    // drown the test report. Child processes a test spawns set their own level.
    env: { LIVEREC_LOG_LEVEL: 'silent' },
  },
});
