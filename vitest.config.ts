// Test runner settings: real servers, workers and files, so generous timeouts and no watch.
import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/support/slow-first-sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most suites wait on real-time streams, not the CPU: a clean-clone run with three files at a time used 620
    // CPU-seconds in all, under half of what 2 cores give over its wall time. Four at a time keep the whole suite well
    // under 10 minutes on 2 cores (vitest's default there is one); every test must pass on a busy machine anyway.
    maxWorkers: 5,
    sequence: { sequencer: SlowFirstSequencer },
    reporters: ['default'],
    // The services under test log to the in-memory ring only (tests read it there); their lines would otherwise
    // drown the test report. Child processes a test spawns set their own level.
    env: { LIVEREC_LOG_LEVEL: 'silent' },
  },
});
