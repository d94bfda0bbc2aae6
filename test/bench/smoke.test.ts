/**
 * The benchmark harness runs (one iteration, small sizes) so it cannot rot. Nothing here is
 * about time: the budgets are checked by `npm run bench` (bench/RESULTS.md).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

describe('bench/run.mjs --quick', () => {
  it('runs every case and writes every section', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-smoke-'));
    const out = join(dir, 'results.md');
    try {
      const result = await execa(process.execPath, ['bench/run.mjs', '--quick', '--out', out], { cwd: fileURLToPath(new URL('../..', import.meta.url)), reject: false, timeout: 120_000 });
      expect(result.exitCode, result.stderr).toBe(0);
      const text = readFileSync(out, 'utf8');
      for (const heading of ['## Startup', '## One-shot chat, not streamed', '## Stream of 2000 chunks', '## Image of 3 MiB', '## Reading a 3 MiB image answer', '## Time to first token', '## Batch of 200 chat requests', '## Batch memory', '## Searching 500 saved conversations', '## How cost grows', '## Budgets']) {
        expect(text).toContain(heading);
      }
      expect(text).toMatch(/\| svc chat \| [\d.]+ ms/);
      expect(text).toMatch(/\| svc image \| [\d.]+ MiB/);
      expect(text).toMatch(/\| stream-json \| [\d.]+ ms/);
      expect(text).toMatch(/\| svc batch \| [\d.]+ ms/);
      expect(text).toMatch(/\| svc batch, 1200 requests \| [\d.]+ MiB/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});
