/**
 * `svc chat` one-shot, the built binary against the real emulator on 127.0.0.1.
 */
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/server.js';
import { execa } from 'execa';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { hasStackTrace, SVC_BIN, svc } from '../helpers/run-svc.js';

const KEY = 'test-key-e2e-0123456789abcdef';

const setup = useEmulatorSandbox(KEY, { blockTerms: ['forbidden-fruit'] });

describe('svc chat against the emulator', () => {
  it('streams a reply to stdout, ended by one newline, with nothing on stderr', async () => {
    const result = await svc(['chat', '-t', '0', 'tell me about lighthouses'], setup.sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trim().length).toBeGreaterThan(20);
    expect(result.stderr).toBe('');
  });

  it('gives the same text streamed and not streamed at temperature 0', async () => {
    const streamed = await svc(['chat', '-t', '0', 'compare rivers and lakes'], setup.sandbox, { stripFinalNewline: false });
    const whole = await svc(['chat', '-t', '0', '--no-stream', 'compare rivers and lakes'], setup.sandbox, { stripFinalNewline: false });
    expect(whole.exitCode).toBe(0);
    expect(streamed.stdout).toBe(whole.stdout);
    expect(streamed.stdout.endsWith('\n')).toBe(true);
    expect(streamed.stdout.endsWith('\n\n')).toBe(false);
  });

  it('different prompts give different replies', async () => {
    const a = await svc(['chat', '-t', '0', 'gardening in spring'], setup.sandbox);
    const b = await svc(['chat', '-t', '0', 'database indexes'], setup.sandbox);
    expect(a.stdout).not.toBe(b.stdout);
  });

  it('--json prints the 2.2 shape assembled from the stream, with usage', async () => {
    const text = await svc(['chat', '-t', '0', 'explain tides'], setup.sandbox);
    const result = await svc(['chat', '-t', '0', '--json', 'explain tides'], setup.sandbox);
    expect(result.exitCode).toBe(0);
    const completion = JSON.parse(result.stdout);
    expect(completion.object).toBe('chat.completion');
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.model).toBe('svc-pro');
    expect(completion.choices[0].message).toEqual({ role: 'assistant', content: text.stdout });
    expect(completion.choices[0].finish_reason).toBe('stop');
    expect(completion.usage.total_tokens).toBe(completion.usage.prompt_tokens + completion.usage.completion_tokens);
    expect(completion.usage.completion_tokens).toBeGreaterThan(0);
  });

  it('--json --no-stream prints the service object', async () => {
    const result = await svc(['chat', '-t', '0', '--json', '--no-stream', 'explain tides'], setup.sandbox);
    const completion = JSON.parse(result.stdout);
    expect(completion.choices[0].message.role).toBe('assistant');
    expect(completion.usage.prompt_tokens).toBeGreaterThan(0);
  });

  it('reads the prompt from stdin alone', async () => {
    const result = await svc(['chat', '-t', '0'], setup.sandbox, { input: 'what is a monad?\n' });
    expect(result.exitCode).toBe(0);
    const same = await svc(['chat', '-t', '0', 'what is a monad?'], setup.sandbox);
    expect(result.stdout).toBe(same.stdout);
  });

  it('--usage prints token counts on stderr only', async () => {
    const result = await svc(['chat', '--usage', 'count my tokens'], setup.sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/^tokens: \d+ prompt \+ \d+ completion = \d+ total$/);
    expect(result.stdout).not.toContain('tokens:');
  });

  it('--max-tokens cuts the reply, says so on stderr, and reports finish_reason length', async () => {
    const result = await svc(['chat', '--max-tokens', '5', '--json', 'write a long essay about the sea'], setup.sandbox);
    expect(result.exitCode).toBe(0);
    const completion = JSON.parse(result.stdout);
    expect(completion.choices[0].finish_reason).toBe('length');
    expect(completion.usage.completion_tokens).toBe(5);
    expect(result.stderr).toContain('token limit');
  });

  it('--stop cuts the reply before the stop text', async () => {
    const full = await svc(['chat', '-t', '0', 'describe mountains'], setup.sandbox);
    const words = full.stdout.split(/\s+/).filter((word) => /^[a-z]{4,}$/.test(word));
    const stopWord = words[Math.floor(words.length / 2)] ?? 'the';
    const cut = await svc(['chat', '-t', '0', '--stop', stopWord, 'describe mountains'], setup.sandbox);
    expect(cut.exitCode).toBe(0);
    expect(full.stdout.startsWith(cut.stdout.trimEnd())).toBe(true);
    expect(cut.stdout).not.toContain(stopWord);
  });

  it('-s sends a system message that changes the reply', async () => {
    const plain = await svc(['chat', '-t', '0', 'hello'], setup.sandbox);
    const withSystem = await svc(['chat', '-t', '0', '-s', 'You are a pirate.', 'hello'], setup.sandbox);
    expect(withSystem.exitCode).toBe(0);
    expect(withSystem.stdout).not.toBe(plain.stdout);
  });

  it('-m picks another model; an unknown model is refused by the service (exit 4)', async () => {
    const mini = await svc(['chat', '-m', 'svc-mini', '--json', 'hi'], setup.sandbox);
    expect(JSON.parse(mini.stdout).model).toBe('svc-mini');
    const unknown = await svc(['chat', '-m', 'no-such-model', 'hi'], setup.sandbox);
    expect(unknown.exitCode).toBe(4);
    expect(unknown.stderr).toContain('no-such-model');
    expect(unknown.stdout).toBe('');
  });

  it('disallowed content is exit 4 with exactly the service message', async () => {
    const result = await svc(['chat', 'tell me about forbidden-fruit'], setup.sandbox);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('error: Request contains disallowed content (HTTP 400');
    expect(result.stdout).toBe('');
  });

  it('a wrong key is exit 3 with a hint, and the key is not shown', async () => {
    const wrong = 'wrong-key-abcdefghijklmnop';
    const result = await svc(['chat', 'hi'], { ...setup.sandbox, env: { ...setup.sandbox.env, SVC_API_KEY: wrong } });
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('rejected the API key');
    expect(result.stderr).toContain('svc auth login');
    expect(result.stderr).not.toContain(wrong);
    expect(hasStackTrace(result.stderr)).toBe(false);
  });

  it('no key at all is exit 3 before anything is sent', async () => {
    const env = { ...setup.sandbox.env };
    delete env.SVC_API_KEY;
    const result = await svc(['chat', 'hi'], { ...setup.sandbox, env });
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('no API key');
  });

  it('a bad flag value is exit 2', async () => {
    for (const args of [['-t', '9'], ['--top-p', 'x'], ['--max-tokens', '0'], ['--presence-penalty', '-3'], ['--timeout', 'soon'], ['--bogus']]) {
      const result = await svc(['chat', ...args, 'hi'], setup.sandbox);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
    }
  });

  it('no prompt at all is exit 2', async () => {
    const result = await svc(['chat'], setup.sandbox, { input: '' });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('no prompt');
  });

  it('a stopped server is exit 6 after retries', async () => {
    const stopped = await startEmulator();
    const baseUrl = stopped.baseUrl;
    await stopped.close();
    const result = await svc(['chat', '--base-url', baseUrl, 'hi'], setup.sandbox);
    expect(result.exitCode).toBe(6);
    expect(result.stderr).toContain('connection refused');
    expect(hasStackTrace(result.stderr)).toBe(false);
  });

  it('SVC_DEBUG=1 logs the request with the key redacted', async () => {
    const result = await svc(['chat', 'hi'], { ...setup.sandbox, env: { ...setup.sandbox.env, SVC_DEBUG: '1' } });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('svc debug: POST');
    expect(result.stderr).toContain('[redacted]');
    expect(result.stderr).not.toContain(KEY);
  });

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
