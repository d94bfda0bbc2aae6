/**
 * The fault matrix for the interactive session in a real terminal (`svc image` has its own,
 * in-process, in fault-matrix.test.ts): every fault a test server on 127.0.0.1 can play, with the
 * message, the session going on, what was saved, and no stack trace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, SVC_BIN, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer, type Handler } from '../helpers/scripted-server.js';
import { startTmux, tmuxAvailable } from '../helpers/tmux.js';

const scripted = useScriptedServer();
let sandbox: Sandbox;
const hasTmux = await tmuxAvailable();
const fast = { 'retry-after-ms': '10' };

beforeAll(() => {
  sandbox = makeSandbox({ SVC_API_KEY: 'matrix-key-0123456789abcdef' });
});
afterAll(() => sandbox.cleanup());

describe.skipIf(!hasTmux)('the session under faults', () => {
  it('each fault is reported in one or two lines, what came is kept, and the session goes on', async () => {
    const env = { ...sandbox.env, SVC_BASE_URL: scripted.server.baseUrl };
    const term = await startTmux(`node "${SVC_BIN}" chat --session matrix --max-retries 1 --timeout 0.5`, env, sandbox.home);
    const faults: Array<[string, Handler[], string]> = [
      ['429 that never ends', [reply.repeat(reply.json(429, { error: { message: 'slow down' } }, fast))], 'slow down'],
      ['an HTML 502 page', [reply.repeat(reply.text(502, '<html><title>502 Bad Gateway</title></html>', 'text/html'))], '502 Bad Gateway'],
      ['headers, then silence', [reply.silentAfterHeaders()], 'timeout'],
      ['malformed JSON in the stream', [reply.sse(['data: {oops\n\n'])], 'not JSON'],
      ['an error event mid-stream', [reply.sse([chunk('partial one '), 'data: {"error":{"message":"overloaded"}}\n\n'])], 'overloaded'],
      ['a stream cut mid-way', [reply.sse([chunk('partial two ')], { cut: true })], 'stream interrupted'],
      ['no [DONE] and no finish_reason', [reply.sse([chunk('partial three')])], 'stream interrupted'],
      ['500 then success', [reply.json(500, {}, fast), reply.sse([chunk('recovered', 'stop'), 'data: [DONE]\n\n'])], 'recovered'],
    ];
    try {
      await term.waitFor('/help for commands');
      for (const [index, [name, handlers, shown]] of faults.entries()) {
        scripted.server.script(...handlers);
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
    const show = await runSvc(['sessions', 'show', 'matrix', '--json'], sandbox);
    const contents = JSON.parse(show.stdout).map((m: { content: string }) => m.content);
    // Failures before any text keep nothing; partial replies are kept; the success is there.
    expect(contents).toEqual(['message 4', 'partial one ', 'message 5', 'partial two ', 'message 6', 'partial three', 'message 7', 'recovered']);
  }, 120_000);
});
