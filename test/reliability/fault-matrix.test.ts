/**
 * The fault matrix for `svc image` (in-process; one-shot chat has its own in
 * test/commands/chat-faults.test.ts and test/reliability/more-faults.test.ts, the interactive
 * session in fault-matrix.e2e.test.ts): every fault a test server on 127.0.0.1 can play, with
 * the exit code, what reached stdout, what was saved, and no stack trace.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpeg, png } from '../helpers/fake-images.js';
import { runSvc } from '../helpers/in-process.js';
import { refusedBaseUrl } from '../helpers/refused-url.js';
import { hasStackTrace, makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, useScriptedServer, type Handler } from '../helpers/scripted-server.js';

const scripted = useScriptedServer();
let sandbox: Sandbox;
const IMAGE = png(16, 9);
const imageAnswer = () => reply.json(200, { created: 1, data: [{ b64_json: IMAGE.toString('base64'), revised_prompt: 'revised' }] });
const fast = { 'retry-after-ms': '10' };

beforeAll(() => {
  // The saved files are compared with the bytes the service sent: no provenance written into them (its own tests: image-metadata, provenance).
  sandbox = makeSandbox({ SVC_API_KEY: 'matrix-key-0123456789abcdef', SVC_IMAGE_METADATA: 'off' });
});
afterAll(() => sandbox.cleanup());

const stray = () => readdirSync(sandbox.home).filter((name) => /\.(png|part)$/.test(name));

describe('svc image under faults', () => {
  const cases: Array<{ name: string; handlers: () => Handler[]; code: number; message: string }> = [
    { name: 'reset before headers, then success (retried)', handlers: () => [reply.reset(), imageAnswer()], code: 0, message: '' },
    { name: '500 then success', handlers: () => [reply.json(500, { error: { message: 'oops' } }, fast), imageAnswer()], code: 0, message: '' },
    { name: '503 with Retry-After, then success', handlers: () => [reply.json(503, {}, { 'retry-after': '0' }), imageAnswer()], code: 0, message: '' },
    { name: '429 with retry-after-ms, then success', handlers: () => [reply.json(429, {}, fast), imageAnswer()], code: 0, message: '' },
    { name: '429 that never ends', handlers: () => [reply.repeat(reply.json(429, { error: { message: 'slow down' } }, fast))], code: 5, message: 'slow down' },
    { name: 'an HTML 502 page', handlers: () => [reply.repeat(reply.text(502, '<html><title>502 Bad Gateway</title></html>', 'text/html'))], code: 1, message: '502 Bad Gateway' },
    { name: 'headers, then silence', handlers: () => [reply.silentAfterHeaders()], code: 6, message: 'timeout' },
    { name: 'no answer at all', handlers: () => [reply.silent()], code: 6, message: 'timeout' },
    { name: 'malformed JSON', handlers: () => [reply.text(200, '{"data": [', 'application/json')], code: 1, message: 'not JSON' },
    { name: 'JSON of the wrong shape (no data)', handlers: () => [reply.json(200, { created: 1 })], code: 1, message: 'without `data`' },
    { name: 'data empty', handlers: () => [reply.json(200, { created: 1, data: [] })], code: 1, message: '`data` is empty' },
    { name: 'invalid base64', handlers: () => [reply.json(200, { data: [{ b64_json: '@@@@' }] })], code: 1, message: 'not valid base64' },
    { name: 'an image of the wrong format', handlers: () => [reply.json(200, { data: [{ b64_json: jpeg(4, 4).toString('base64') }] })], code: 1, message: 'is jpeg, not the png asked for' },
    { name: 'a body cut in the middle', handlers: () => [reply.sse(['{"data":[{"b64_json":"iVBOR'], { cut: true })], code: 6, message: 'interrupted' },
    { name: '401', handlers: () => [reply.json(401, { error: { message: 'revoked' } })], code: 3, message: 'revoked' },
  ];

  it.each(cases)('$name → exit $code', async ({ handlers, code, message }) => {
    scripted.server.script(...handlers());
    const result = await runSvc(['image', 'x', '-o', 'out.png', '--timeout', '0.5'], sandbox, { env: { SVC_BASE_URL: scripted.server.baseUrl } });
    expect(result.exitCode, result.stderr).toBe(code);
    expect(hasStackTrace(result.stderr)).toBe(false);
    if (code === 0) {
      expect(result.stdout).toBe('revised\n');
      expect(stray()).toEqual(['out.png']);
      expect(readFileSync(join(sandbox.home, 'out.png')).equals(IMAGE)).toBe(true);
      rmSync(join(sandbox.home, 'out.png'));
    } else {
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(message);
      expect(stray()).toEqual([]);
    }
  });

  it('connection refused → exit 6, nothing written', async () => {
    const result = await runSvc(['image', 'x', '-o', 'out.png'], sandbox, { env: { SVC_BASE_URL: await refusedBaseUrl() } });
    expect(result.exitCode).toBe(6);
    expect(result.stderr).toContain('connection refused');
    expect(stray()).toEqual([]);
  });
});
