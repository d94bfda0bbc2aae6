import { defineConfig } from 'vitest/config';

/**
 * The benchmark harness smoke (`npm run bench:smoke`): runs bench/run.mjs in its quick mode so it
 * cannot rot. Apart from `npm test` because it is a minute of CPU that says nothing about svc's
 * behaviour; CI runs both (.ci/run).
 */
export default defineConfig({
  test: {
    include: ['test/bench/**/*.test.ts'],
    testTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 1,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
