/**
 * src/api/baseline-wasm.ts sets V8's `--liftoff-only` (about 64 ms off every one-shot chat:
 * without it a process waits for V8's background recompilation of undici's WebAssembly parser
 * before it can exit). V8 flags are not an API: should a Node upgrade drop this one, setting it
 * prints "unrecognized flag" and does nothing. This fails first.
 */
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('WebAssembly on the baseline compiler', () => {
  it("is a flag this Node's V8 knows", async () => {
    const { stdout } = await execa(process.execPath, ['--v8-options'], { cwd: root });
    expect(stdout).toMatch(/^\s*--liftoff-only\b/m);
  });

  it('is set on import without a word on stderr', async () => {
    const result = await execa(process.execPath, ['--input-type=module', '-e', "await import('./dist/api/baseline-wasm.js');"], { cwd: root });
    expect(result.stderr).toBe('');
  });

  it('a flag V8 does not know says so on stderr (so the check above can fail)', async () => {
    const result = await execa(process.execPath, ['-e', "require('node:v8').setFlagsFromString('--svc-no-such-flag')"], { cwd: root });
    expect(result.stderr).toContain('unrecognized flag');
  });
});
