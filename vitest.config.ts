// Test runner settings: real servers, workers and files, so generous timeouts and no watch.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most suites wait on real-time streams, not the CPU: two files at a time halve the wall time on 2 cores
    // (vitest's default there is one).
    maxWorkers: 2,
    reporters: ['default'],
    // Warnings and errors only: room logs would otherwise drown the test report.
    env: { LIVEREC_LOG_LEVEL: 'warn' },
  },
});
