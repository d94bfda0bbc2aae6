/**
 * `svc chat` one-shot, in-process (main with captured streams) against the emulator on
 * 127.0.0.1. A closed stdout and a real Ctrl-C are in test/e2e/chat-emulator.e2e.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { runSvc } from '../helpers/in-process.js';
import { refusedBaseUrl } from '../helpers/refused-url.js';
import { hasStackTrace } from '../helpers/run-svc.js';

const KEY = 'test-key-e2e-0123456789abcdef';

const setup = useEmulatorSandbox(KEY, { blockTerms: ['forbidden-fruit'] });

describe('svc chat against the emulator', () => {
  it('streams a reply about the prompt to stdout, ended by one newline, with nothing on stderr', async () => {
    const result = await runSvc(['chat', '-t', '0', 'tell me about lighthouses'], setup.sandbox);
    expect(result.exitCode).toBe(0);
    // The emulator writes sentences about the key words of the prompt.
    expect(result.stdout).toMatch(/^[A-Z].*lighthouses.*\.\n$/s);
    expect(result.stdout.endsWith('\n\n')).toBe(false);
    expect(result.stderr).toBe('');
  });

  it('gives the same text streamed and not streamed at temperature 0', async () => {
    const streamed = await runSvc(['chat', '-t', '0', 'compare rivers and lakes'], setup.sandbox);
    const whole = await runSvc(['chat', '-t', '0', '--no-stream', 'compare rivers and lakes'], setup.sandbox);
    expect(whole.exitCode).toBe(0);
    expect(streamed.stdout).toBe(whole.stdout);
    expect(streamed.stdout.endsWith('\n')).toBe(true);
    expect(streamed.stdout.endsWith('\n\n')).toBe(false);
  });

  it('different prompts give different replies', async () => {
    const a = await runSvc(['chat', '-t', '0', 'gardening in spring'], setup.sandbox);
    const b = await runSvc(['chat', '-t', '0', 'database indexes'], setup.sandbox);
    expect(a.stdout).not.toBe(b.stdout);
  });

  it('--json prints the 2.2 shape assembled from the stream, with usage', async () => {
    const text = await runSvc(['chat', '-t', '0', 'explain tides'], setup.sandbox);
    const result = await runSvc(['chat', '-t', '0', '--json', 'explain tides'], setup.sandbox);
    expect(result.exitCode).toBe(0);
    const completion = JSON.parse(result.stdout);
    expect(completion.object).toBe('chat.completion');
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.model).toBe('svc-pro');
    expect(completion.choices[0].message).toEqual({ role: 'assistant', content: text.stdout.slice(0, -1), refusal: null });
    expect(completion.system_fingerprint).toBe('fp_svc_emulator');
    expect(text.stdout.endsWith('\n')).toBe(true);
    expect(completion.choices[0].finish_reason).toBe('stop');
    expect(completion.usage.total_tokens).toBe(completion.usage.prompt_tokens + completion.usage.completion_tokens);
    expect(completion.usage.completion_tokens).toBeGreaterThan(0);
  });

  it('--json --no-stream prints the service object', async () => {
    const result = await runSvc(['chat', '-t', '0', '--json', '--no-stream', 'explain tides'], setup.sandbox);
    const completion = JSON.parse(result.stdout);
    expect(completion.choices[0].message.role).toBe('assistant');
    expect(completion.usage.prompt_tokens).toBeGreaterThan(0);
  });

  it('reads the prompt from stdin alone', async () => {
    const result = await runSvc(['chat', '-t', '0'], setup.sandbox, { stdin: 'what is a monad?\n' });
    expect(result.exitCode).toBe(0);
    const same = await runSvc(['chat', '-t', '0', 'what is a monad?'], setup.sandbox);
    expect(result.stdout).toBe(same.stdout);
  });

  it('--usage prints token counts on stderr only', async () => {
    const result = await runSvc(['chat', '--usage', 'count my tokens'], setup.sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/^tokens: \d+ prompt \+ \d+ completion = \d+ total\n$/);
    expect(result.stdout).not.toContain('tokens:');
  });

  it('--max-tokens cuts the reply, says so on stderr, and reports finish_reason length', async () => {
    const result = await runSvc(['chat', '--max-tokens', '5', '--json', 'write a long essay about the sea'], setup.sandbox);
    expect(result.exitCode).toBe(0);
    const completion = JSON.parse(result.stdout);
    expect(completion.choices[0].finish_reason).toBe('length');
    expect(completion.usage.completion_tokens).toBe(5);
    expect(result.stderr).toContain('token limit');
  });

  it('--stop cuts the reply before the stop text', async () => {
    const full = await runSvc(['chat', '-t', '0', 'describe mountains'], setup.sandbox);
    const words = full.stdout.split(/\s+/).filter((word) => /^[a-z]{4,}$/.test(word));
    const stopWord = words[Math.floor(words.length / 2)] ?? 'the';
    const cut = await runSvc(['chat', '-t', '0', '--stop', stopWord, 'describe mountains'], setup.sandbox);
    expect(cut.exitCode).toBe(0);
    expect(full.stdout.startsWith(cut.stdout.trimEnd())).toBe(true);
    expect(cut.stdout).not.toContain(stopWord);
  });

  it('-s sends a system message that changes the reply', async () => {
    const plain = await runSvc(['chat', '-t', '0', 'hello'], setup.sandbox);
    const withSystem = await runSvc(['chat', '-t', '0', '-s', 'You are a pirate.', 'hello'], setup.sandbox);
    expect(withSystem.exitCode).toBe(0);
    expect(withSystem.stdout).not.toBe(plain.stdout);
  });

  it('-m picks another model; an unknown model is refused by the service (exit 4)', async () => {
    const mini = await runSvc(['chat', '-m', 'svc-mini', '--json', 'hi'], setup.sandbox);
    expect(JSON.parse(mini.stdout).model).toBe('svc-mini');
    const unknown = await runSvc(['chat', '-m', 'no-such-model', 'hi'], setup.sandbox);
    expect(unknown.exitCode).toBe(4);
    expect(unknown.stderr).toContain('no-such-model');
    expect(unknown.stdout).toBe('');
  });

  it('disallowed content is exit 4 with exactly the service message', async () => {
    const result = await runSvc(['chat', 'tell me about forbidden-fruit'], setup.sandbox);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('error: Request contains disallowed content (HTTP 400');
    expect(result.stdout).toBe('');
  });

  it('a wrong key is exit 3 with a hint, and the key is not shown', async () => {
    const wrong = 'wrong-key-abcdefghijklmnop';
    const result = await runSvc(['chat', 'hi'], setup.sandbox, { env: { SVC_API_KEY: wrong } });
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('rejected the API key');
    expect(result.stderr).toContain('svc auth login');
    expect(result.stderr).not.toContain(wrong);
    expect(hasStackTrace(result.stderr)).toBe(false);
  });

  it('no key at all is exit 3 before anything is sent', async () => {
    const result = await runSvc(['chat', 'hi'], setup.sandbox, { env: { SVC_API_KEY: undefined } });
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('no API key');
  });

  it('a bad flag value is exit 2', async () => {
    for (const args of [['-t', '9'], ['--top-p', 'x'], ['--max-tokens', '0'], ['--presence-penalty', '-3'], ['--timeout', 'soon'], ['--bogus']]) {
      const result = await runSvc(['chat', ...args, 'hi'], setup.sandbox);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
    }
  });

  it('no prompt at all is exit 2', async () => {
    const result = await runSvc(['chat'], setup.sandbox, { stdin: '' });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('no prompt');
  });

  it('a server that refuses connections is exit 6 after retries', async () => {
    const result = await runSvc(['chat', '--base-url', await refusedBaseUrl(), 'hi'], setup.sandbox);
    expect(result.exitCode).toBe(6);
    expect(result.stderr).toContain('connection refused');
    expect(hasStackTrace(result.stderr)).toBe(false);
  });

  it('SVC_DEBUG=1 logs the request with the key redacted', async () => {
    const result = await runSvc(['chat', 'hi'], setup.sandbox, { env: { SVC_DEBUG: '1' } });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('svc debug: POST');
    expect(result.stderr).toContain('[redacted]');
    expect(result.stderr).not.toContain(KEY);
  });
});
