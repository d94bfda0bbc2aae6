/**
 * SVC_DEBUG=1 request lines keep their shape where the key is redacted (the closing `)` was
 * eaten), and redaction still removes the key and any other bearer token whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redact } from '../../src/terminal/report-error.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

const KEY = 'sk-debug-key-0123456789abcdef';
const COMPLETION = { id: 'c1', object: 'chat.completion', created: 1, model: 'svc-pro', choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }] };

describe('redact', () => {
  it.each([
    ['a redacted header keeps what follows it', 'POST u (attempt 1, 9 bytes, Authorization: Bearer [redacted])', 'POST u (attempt 1, 9 bytes, Authorization: Bearer [redacted])'],
    ['the known key, whole, wherever it is', `key=${KEY}!`, 'key=[redacted]!'],
    ['the known key after Bearer keeps the `)`', `(Bearer ${KEY})`, '(Bearer [redacted])'],
    ['another bearer token', 'bad key: Bearer other-token-xyz', 'bad key: Bearer [redacted]'],
    ['a token that only starts like a redaction', 'Bearer [redacted]tail', 'Bearer [redacted]'],
  ])('%s', (_name, text, expected) => {
    expect(redact(text, KEY)).toBe(expected);
  });
});

describe('SVC_DEBUG=1', () => {
  let server: ScriptedServer;
  let sandbox: Sandbox;
  beforeAll(async () => {
    server = await startScriptedServer(reply.json(200, COMPLETION));
    sandbox = makeSandbox({ SVC_BASE_URL: server.baseUrl, SVC_API_KEY: KEY, SVC_DEBUG: '1' });
  });
  afterAll(async () => {
    await server.close();
    sandbox.cleanup();
  });

  it('prints the request line whole, with the key redacted', async () => {
    const result = await runSvc(['chat', '--no-save', '--no-stream', 'hi'], sandbox);
    expect(result.exitCode).toBe(0);
    const line = result.stderr.split('\n').find((text) => text.startsWith('svc debug: POST '));
    expect(line).toMatch(/^svc debug: POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions \(attempt 1, \d+ bytes, Authorization: Bearer \[redacted\]\)$/);
    expect(result.stderr).not.toContain(KEY);
  });
});
