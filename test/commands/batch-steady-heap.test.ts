/**
 * src/commands/batch/steady-heap.ts sets V8's `--heap-growing-percent` when a batch starts. V8
 * flags are not an API: should a Node upgrade drop this one, setting it prints "unrecognized flag"
 * and does nothing. This fails first.
 */
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe("a batch's steady heap", () => {
  it("is a flag this Node's V8 knows", async () => {
    const { stdout } = await execa(process.execPath, ['--v8-options'], { cwd: root });
    expect(stdout).toMatch(/^\s*--heap-growing-percent\b/m);
  });

  it('is set without a word on stderr', async () => {
    const script = "const { keepHeapSteady } = await import('./dist/commands/batch/steady-heap.js'); keepHeapSteady(); process.stdout.write('set');";
    const result = await execa(process.execPath, ['--input-type=module', '-e', script], { cwd: root });
    expect(result.stdout).toBe('set');
    expect(result.stderr).toBe('');
  });

  it('a flag V8 does not know says so on stderr (so the check above can fail)', async () => {
    const result = await execa(process.execPath, ['-e', "require('node:v8').setFlagsFromString('--svc-no-such-flag')"], { cwd: root });
    expect(result.stderr).toContain('unrecognized flag');
  });
});
