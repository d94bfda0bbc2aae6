/**
 * `svc chat` one-shot, the built binary against the real emulator on 127.0.0.1: what only a real
 * process shows (a pipe closed by its reader, a real SIGINT). The flags, output shapes and exit
 * codes are tested in-process in test/commands/chat-emulator.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { startEmulator } from '@svc/emulator';
import { execa } from 'execa';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { hasStackTrace, SVC_BIN } from '../helpers/run-svc.js';

const KEY = 'test-key-e2e-0123456789abcdef';

const setup = useEmulatorSandbox(KEY, { blockTerms: ['forbidden-fruit'] });

describe('svc chat against the emulator', () => {
  it('a closed stdout (| head -c 10) is a quiet success', async () => {
    const slow = await startEmulator({ apiKeys: [KEY], delayMs: 5 });
    try {
      const result = await execa('bash', ['-c', 'node "$SVC" chat --max-tokens 400 "write a long story" | head -c 10; echo "status=${PIPESTATUS[0]}" >&2'], {
        env: { ...setup.sandbox.env, SVC_BASE_URL: slow.baseUrl, SVC: SVC_BIN },
        extendEnv: false,
        reject: false,
        stdin: 'ignore',
        timeout: 20_000,
      });
      expect(result.stdout).toHaveLength(10);
      expect(result.stderr.trim()).toBe('status=0');
    } finally {
      await slow.close();
    }
  });

  it('Ctrl-C mid-reply exits 130 and keeps the text received so far', async () => {
    const slow = await startEmulator({ apiKeys: [KEY], delayMs: 40 });
    try {
      const child = execa(process.execPath, [SVC_BIN, 'chat', '--max-tokens', '300', 'a long story please'], {
        env: { ...setup.sandbox.env, SVC_BASE_URL: slow.baseUrl },
        extendEnv: false,
        reject: false,
        stdin: 'ignore',
        timeout: 20_000,
      });
      let seen = '';
      await new Promise<void>((resolve) => {
        child.stdout?.on('data', (data: Buffer) => {
          seen += data.toString();
          if (seen.length > 20) resolve();
        });
      });
      child.kill('SIGINT');
      const result = await child;
      expect(result.exitCode).toBe(130);
      expect(result.stdout.length).toBeGreaterThanOrEqual(20);
      expect(result.stderr).toContain('interrupted');
      expect(hasStackTrace(result.stderr)).toBe(false);
    } finally {
      await slow.close();
    }
  });
});
