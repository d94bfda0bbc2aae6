import { describe, expect, it } from 'vitest';
import { sendsKeyInClear } from '../../src/core/loopback.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox } from '../helpers/run-svc.js';

describe('sendsKeyInClear', () => {
  it.each([
    ['http://api.example.com', true],
    ['http://10.0.0.5:8080/v1', true],
    ['http://[2001:db8::1]:80', true],
    ['https://api.example.com', false],
    ['http://127.0.0.1:8080', false],
    ['http://127.9.9.9', false],
    ['http://localhost:3000', false],
    ['http://svc.localhost', false],
    ['http://[::1]:8080', false],
  ])('%s → %s', (url, expected) => {
    expect(sendsKeyInClear(url)).toBe(expected);
  });

  it('svc warns on stderr, without the key, before it tries', async () => {
    const sandbox = makeSandbox({ SVC_BASE_URL: 'http://svc-test.invalid', SVC_API_KEY: 'clear-key-0123456789abcdef' });
    try {
      const result = await runSvc(['chat', '--max-retries', '0', 'hi'], sandbox);
      expect(result.stderr).toContain('the API key travels unencrypted');
      expect(result.stderr).not.toContain('clear-key-0123456789abcdef');
      expect(result.exitCode).toBe(6);
    } finally {
      sandbox.cleanup();
    }
  });
});
