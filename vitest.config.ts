import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests spawn the built binary; two cores, so keep the pool small and the timeouts roomy.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
