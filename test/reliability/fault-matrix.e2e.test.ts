/**
 * The fault matrix for `svc image` and for the interactive session (one-shot chat has its own in
 * test/e2e/chat-faults.e2e.test.ts and more-faults.e2e.test.ts): every fault a test server on
 * 127.0.0.1 can play, with the exit code (or, in the session, the message and the session going
 * on), what reached stdout, what was saved, and no stack trace.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpeg, png } from '../helpers/fake-images.js';
import { hasStackTrace, makeSandbox, SVC_BIN, svc, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, startScriptedServer, type Handler, type ScriptedServer } from '../helpers/scripted-server.js';
import { startTmux, tmuxAvailable } from '../helpers/tmux.js';

let server: ScriptedServer;
let sandbox: Sandbox;
const hasTmux = await tmuxAvailable();
const IMAGE = png(16, 9);
const imageAnswer = reply.json(200, { created: 1, data: [{ b64_json: IMAGE.toString('base64'), revised_prompt: 'revised' }] });
const fast = { 'retry-after-ms': '10' };

beforeAll(async () => {
  server = await startScriptedServer();
  sandbox = makeSandbox({ SVC_API_KEY: 'matrix-key-0123456789abcdef' });
});
afterAll(async () => {
  await server.close();
  sandbox.cleanup();
});

const stray = () => readdirSync(sandbox.home).filter((name) => /\.(png|part)$/.test(name));

describe('svc image under faults', () => {
  const cases: Array<[string, Handler[], number, string]> = [
    ['reset before headers, then success (retried)', [reply.reset(), imageAnswer], 0, ''],
    ['500 then success', [reply.json(500, { error: { message: 'oops' } }, fast), imageAnswer], 0, ''],
    ['503 with Retry-After, then success', [reply.json(503, {}, { 'retry-after': '0' }), imageAnswer], 0, ''],
    ['429 with retry-after-ms, then success', [reply.json(429, {}, fast), imageAnswer], 0, ''],
    ['429 that never ends', [reply.json(429, { error: { message: 'slow down' } }, fast)], 5, 'slow down'],
    ['an HTML 502 page', [reply.text(502, '<html><title>502 Bad Gateway</title></html>', 'text/html')], 1, '502 Bad Gateway'],
    ['headers, then silence', [reply.silentAfterHeaders()], 6, 'timeout'],
    ['no answer at all', [reply.silent()], 6, 'timeout'],
    ['malformed JSON', [reply.text(200, '{"data": [', 'application/json')], 1, 'not JSON'],
    ['JSON of the wrong shape (no data)', [reply.json(200, { created: 1 })], 1, 'without `data`'],
    ['data empty', [reply.json(200, { created: 1, data: [] })], 1, '`data` is empty'],
    ['invalid base64', [reply.json(200, { data: [{ b64_json: '@@@@' }] })], 1, 'not valid base64'],
    ['an image of the wrong format', [reply.json(200, { data: [{ b64_json: jpeg(4, 4).toString('base64') }] })], 1, 'is jpeg, not the png asked for'],
    ['a body cut in the middle', [reply.sse(['{"data":[{"b64_json":"iVBOR'], { cut: true, delayMs: 20 })], 6, 'interrupted'],
    ['401', [reply.json(401, { error: { message: 'revoked' } })], 3, 'revoked'],
  ];

  it.each(cases)('%s → exit %i', async (_name, handlers, code, message) => {
    server.script(...handlers);
    const env = { ...sandbox.env, SVC_BASE_URL: server.baseUrl };
    const result = await svc(['image', 'x', '-o', 'out.png', '--timeout', '0.5'], { ...sandbox, env });
    expect(result.exitCode, result.stderr).toBe(code);
    expect(hasStackTrace(result.stderr)).toBe(false);
    if (code === 0) {
      expect(result.stdout).toBe('revised');
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
    const result = await svc(['image', 'x', '-o', 'out.png'], { ...sandbox, env: { ...sandbox.env, SVC_BASE_URL: 'http://127.0.0.1:9' } });
    expect(result.exitCode).toBe(6);
    expect(stray()).toEqual([]);
  });
});

describe.skipIf(!hasTmux)('the session under faults', () => {
  it('each fault is reported in one or two lines, what came is kept, and the session goes on', async () => {
    const env = { ...sandbox.env, SVC_BASE_URL: server.baseUrl };
    const term = await startTmux(`node "${SVC_BIN}" chat --session matrix --max-retries 1 --timeout 0.5`, env, sandbox.home);
    const faults: Array<[string, Handler[], string]> = [
      ['429 that never ends', [reply.json(429, { error: { message: 'slow down' } }, fast)], 'slow down'],
      ['an HTML 502 page', [reply.text(502, '<html><title>502 Bad Gateway</title></html>', 'text/html')], '502 Bad Gateway'],
      ['headers, then silence', [reply.silentAfterHeaders()], 'timeout'],
      ['malformed JSON in the stream', [reply.sse(['data: {oops\n\n'])], 'not JSON'],
      ['an error event mid-stream', [reply.sse([chunk('partial one '), 'data: {"error":{"message":"overloaded"}}\n\n'])], 'overloaded'],
      ['a stream cut mid-way', [reply.sse([chunk('partial two ')], { cut: true, delayMs: 30 })], 'stream interrupted'],
      ['no [DONE] and no finish_reason', [reply.sse([chunk('partial three')])], 'stream interrupted'],
      ['500 then success', [reply.json(500, {}, fast), reply.sse([chunk('recovered', 'stop'), 'data: [DONE]\n\n'])], 'recovered'],
    ];
    try {
      await term.waitFor('/help for commands');
      for (const [index, [name, handlers, shown]] of faults.entries()) {
        server.script(...handlers);
        await term.type(`message ${index}`, true);
        await term.waitFor(shown, 15_000).catch((error: Error) => {
          throw new Error(`${name}: ${error.message}`);
        });
        await term.waitFor(new RegExp(`message ${index}[\\s\\S]*\\n› $`, 'm'), 15_000);
      }
      await term.press('C-d');
      await term.waitFor('[exit 0]');
      expect(await term.screen()).not.toMatch(/\n\s+at .+:\d+:\d+/);
    } finally {
      await term.kill();
    }
    const show = await svc(['sessions', 'show', 'matrix', '--json'], sandbox);
    const contents = JSON.parse(show.stdout).map((m: { content: string }) => m.content);
    // Failures before any text keep nothing; partial replies are kept; the success is there.
    expect(contents).toEqual(['message 4', 'partial one ', 'message 5', 'partial two ', 'message 6', 'partial three', 'message 7', 'recovered']);
  }, 120_000);
});
