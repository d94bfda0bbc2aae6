import { defineConfig } from 'vitest/config';

/**
 * The package's tests on their own (`npm test` here). svc's `npm test` at the top of the
 * repository runs them too, with its own, in one run (its vitest.config.ts).
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Servers on 127.0.0.1 and images drawn for real: two cores, so a small pool and roomy timeouts.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
