/** `svc emulator` flags, in-process; starting and stopping it for real is in test/e2e/emulator-command.e2e.test.ts. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox } from '../helpers/run-svc.js';

const sandbox = makeSandbox();
afterAll(() => sandbox.cleanup());

describe('svc emulator', () => {
  it('refuses a bad port (exit 2) before listening', async () => {
    const result = await runSvc(['emulator', '--port', '70000'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--port');
    expect(result.stdout).toBe('');
  });

  it('refuses a --context that is not a whole number of at least 1 (exit 2) before listening', async () => {
    for (const value of ['0', 'lots']) {
      const result = await runSvc(['emulator', '--context', value], sandbox);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain('--context');
      expect(result.stderr).not.toContain('listening');
    }
  });

  it('refuses a --replay folder that is not there, or a file, before listening (exit 2)', async () => {
    writeFileSync(join(sandbox.home, 'tape.jsonl'), '');
    for (const [dir, words] of [['tapse-typo', 'tapse-typo does not exist'], ['tape.jsonl', 'tape.jsonl is not a folder']] as const) {
      const result = await runSvc(['emulator', '--replay', dir], sandbox);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(`--replay: ${words}`);
      expect(result.stderr).not.toContain('replaying');
    }
  });
});
