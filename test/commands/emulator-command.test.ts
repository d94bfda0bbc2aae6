/** `svc emulator` flags, in-process; starting and stopping it for real is in test/e2e/emulator-command.e2e.test.ts. */
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
});
