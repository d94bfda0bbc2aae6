import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultServerConditions } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

/** svc's tests, and the emulator package's own (packages/emulator/test): one run for both. */
const TEST_FOLDERS = ['test', 'packages/emulator/test'];

/**
 * The test files that replace a module (vi.mock, vi.doMock), found by reading them so a new one
 * cannot be missed. In a shared module graph such a mock is wrong both ways: it does not take
 * if an earlier file of the worker already loaded the src/ module that imports the mocked one,
 * and the src/ modules loaded under it stay in the cache for the files after it.
 */
const replacingModules = TEST_FOLDERS.flatMap((folder) =>
  (readdirSync(join(root, folder), { recursive: true }) as string[])
    .filter((path) => path.endsWith('.test.ts'))
    .filter((path) => /\bvi\.(?:do)?[mM]ock\(/.test(readFileSync(join(root, folder, path), 'utf8')))
    .map((path) => `${folder}/${path.split('\\').join('/')}`),
);

export default defineConfig({
  // A test that imports @svc/emulator gets its TypeScript source (the `svc-source` condition of
  // its package.json), not the dist/ that `npm run build` writes: a test run needs no build of it.
  ssr: { resolve: { conditions: ['svc-source', ...defaultServerConditions] } },
  test: {
    // No `include` here: a project that extends this config would add its own to it, not replace it.
    // End-to-end tests spawn the built binary; two cores, so keep the pool small and the timeouts roomy.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: TEST_FOLDERS.map((folder) => `${folder}/**/*.test.ts`),
          // Test files share each worker's module cache instead of loading vitest, src/ and its
          // dependencies (the WebP encoder's WebAssembly among them) afresh for every file: that
          // was a quarter of the suite's CPU time. It holds because no test leaves global state
          // behind: fake timers and spies are restored in the test that made them, servers are
          // closed by the file that started them, and the files that mock a module run apart.
          isolate: false,
          // The benchmark smoke runs the harness for ~20 s and proves only that it still runs:
          // `npm run bench:smoke` (vitest.bench.config.ts), which CI runs after the suite.
          exclude: [...configDefaults.exclude, ...replacingModules, 'test/bench/**'],
        },
      },
      ...(replacingModules.length === 0
        ? []
        : [{ extends: true as const, test: { name: 'own-modules', isolate: true, include: replacingModules } }]),
    ],
  },
});
