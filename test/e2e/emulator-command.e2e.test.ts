/**
 * `svc emulator` as a user starts it: prints where it listens, serves svc chat, stops on SIGTERM.
 * The chats against it run in-process; a bad --port is in test/commands/emulator-command.test.ts.
 */
import { execa, type ResultPromise } from 'execa';
import { describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, SVC_BIN } from '../helpers/run-svc.js';

/** `svc emulator ARGS` as a process, and its banner (stderr up to "Press Ctrl-C") once it listens. */
function startEmulatorProcess(env: Record<string, string>, args: string[]): { child: ResultPromise; banner: Promise<string> } {
  const child = execa(process.execPath, [SVC_BIN, 'emulator', '--port', '0', ...args], { env, extendEnv: false, reject: false, timeout: 30_000 });
  let stderr = '';
  const banner = new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (data: Buffer) => {
      stderr += data.toString();
      if (stderr.includes('Press Ctrl-C')) resolve(stderr);
    });
    child.on('exit', () => reject(new Error(`emulator exited: ${stderr}`)));
  });
  return { child, banner };
}

describe('svc emulator', () => {
  it('listens on a free port, prints its URL and key, answers svc chat, and stops cleanly', async () => {
    const sandbox = makeSandbox();
    const { child, banner } = startEmulatorProcess(sandbox.env, ['--block', 'plutonium']);
    try {
      const stderr = await banner;
      const baseUrl = /SVC_BASE_URL=(\S+)/.exec(stderr)?.[1];
      const key = /SVC_API_KEY=(\S+)/.exec(stderr)?.[1];
      expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(key).toMatch(/^emu-[0-9a-f]{24}$/);
      const env = { SVC_BASE_URL: baseUrl!, SVC_API_KEY: key! };
      const chat = await runSvc(['chat', '--no-save', 'hello emulator'], sandbox, { env });
      expect(chat.exitCode).toBe(0);
      // The emulator writes about the key words of the prompt.
      expect(chat.stdout).toMatch(/emulator/);
      const blocked = await runSvc(['chat', '--no-save', 'how to enrich plutonium'], sandbox, { env });
      expect(blocked.exitCode).toBe(4);
      expect(blocked.stderr).toContain('disallowed content');
      child.kill('SIGTERM');
      const result = await child;
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toContain('svc emulator stopped');
    } finally {
      child.kill('SIGKILL');
      sandbox.cleanup();
    }
  });

  it('prints its readiness URL; the README\'s wait loop (curl on /health) takes no --fail meant for the test', async () => {
    const sandbox = makeSandbox();
    const { child, banner } = startEmulatorProcess(sandbox.env, ['--api-key', 'test-key-0123456789', '--fail', '1:503']);
    try {
      const stderr = await banner;
      const baseUrl = /SVC_BASE_URL=(\S+)/.exec(stderr)?.[1];
      expect(stderr).toContain(`  ready when ${baseUrl}/health answers 200 (no key; never counted by --fail)\n`);
      // As a CI script waits: a probe of the port itself, then the documented loop.
      const wait = await execa('bash', ['-c', `curl -s -o /dev/null "$URL/"; until curl -sf "$URL/health" >/dev/null; do sleep 0.1; done; echo ready`], {
        env: { ...sandbox.env, URL: baseUrl! },
        extendEnv: false,
        timeout: 20_000,
      });
      expect(wait.stdout).toBe('ready');
      // A model named, as the README's example does: svc asks no model list first, and the chat is request 1.
      const env = { SVC_BASE_URL: baseUrl!, SVC_API_KEY: 'test-key-0123456789', SVC_MODEL: 'svc-pro' };
      const first = await runSvc(['chat', '--no-save', '--max-retries', '0', 'hello'], sandbox, { env });
      expect(first.exitCode).toBe(1);
      expect(first.stderr).toContain('The engine is currently overloaded');
      expect((await runSvc(['chat', '--no-save', 'hello'], sandbox, { env })).exitCode).toBe(0);
    } finally {
      child.kill('SIGKILL');
      sandbox.cleanup();
    }
  });

  it('--text-only refuses content parts naming content; --context N is every chat model\'s window, and svc meets its refusal', async () => {
    const sandbox = makeSandbox();
    const { child, banner } = startEmulatorProcess(sandbox.env, ['--api-key', 'test-key-0123456789', '--text-only', '--context', '64']);
    try {
      const baseUrl = /SVC_BASE_URL=(\S+)/.exec(await banner)?.[1];
      const headers = { authorization: 'Bearer test-key-0123456789', 'content-type': 'application/json' };
      const models = (await (await fetch(`${baseUrl}/v1/models/svc-pro`, { headers })).json()) as { context_length: number };
      expect(models.context_length).toBe(64);
      const parts = await fetch(`${baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] }] }),
      });
      expect(parts.status).toBe(400);
      expect(((await parts.json()) as { error: { param: string } }).error.param).toBe('messages[0].content');
      const env = { SVC_BASE_URL: baseUrl!, SVC_API_KEY: 'test-key-0123456789', SVC_MODEL: 'svc-pro' };
      const long = await runSvc(['chat', '--no-save', 'word '.repeat(100)], sandbox, { env });
      expect(long.exitCode).toBe(4);
      expect(long.stderr).toContain("This model's maximum context length is 64 tokens");
      expect((await runSvc(['chat', '--no-save', 'hello'], sandbox, { env })).exitCode).toBe(0);
    } finally {
      child.kill('SIGKILL');
      sandbox.cleanup();
    }
  });
});
