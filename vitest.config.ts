import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests spawn the built binary; two cores, so keep the pool small and the timeouts roomy.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
    // Test files share each worker's module cache instead of loading vitest, src/ and its
    // dependencies (the WebP encoder's WebAssembly among them) afresh for every file: that was a
    // quarter of the suite's CPU time. It holds because no test leaves global state behind:
    // fake timers and spies are restored in the test that made them, servers are closed by the
    // file that started them, and nothing uses vi.mock (which would leak into later files).
    isolate: false,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
