// Test runner settings: real servers, workers and files, so generous timeouts and no watch.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
    // Warnings and errors only: room logs would otherwise drown the test report.
    env: { LIVEREC_LOG_LEVEL: 'warn' },
  },
});
