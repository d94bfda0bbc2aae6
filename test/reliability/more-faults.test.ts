/** Faults not covered elsewhere, one-shot and in-process: slow drips, huge lines, Retry-After, resets. */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { QUIET_STDIN_NOTICE_MS } from '../../src/commands/chat/prompt-input.js';
import { InterruptRouter } from '../../src/terminal/interrupts.js';
import { runSvc } from '../helpers/in-process.js';
import { hasStackTrace, makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer } from '../helpers/scripted-server.js';

const scripted = useScriptedServer();
let sandbox: Sandbox;

beforeAll(() => {
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'faults-key-0123456789abcdef' });
});
afterAll(() => sandbox.cleanup());

describe('more faults, one-shot', () => {
  it('a body that drips slower than --timeout in all but never goes silent that long is read whole', async () => {
    const text = chunk('slow but steady', 'stop') + 'data: [DONE]\n\n';
    scripted.server.script(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // About 1.2 s in all, a piece every 0.3 s, against a 1 s limit on silence. The pacing is
      // what this case is about; nothing waits on it to order events.
      const pieces = 4;
      const size = Math.ceil(text.length / pieces);
      for (let i = 0; i < text.length; i += size) {
        res.write(text.slice(i, i + size));
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      res.end();
    });
    const result = await runSvc(['chat', '--no-save', '--timeout', '1', 'x'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('slow but steady\n');
  });

  it('a 10 MB single SSE line is one event', async () => {
    const big = 'y'.repeat(10 * 1024 * 1024);
    scripted.server.script(reply.sse([chunk(big, 'stop'), 'data: [DONE]\n\n']));
    const result = await runSvc(['chat', '--no-save', 'x'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stdout === `${big}\n`).toBe(true);
  });

  it('503 with Retry-After is retried after the wait, then succeeds', async () => {
    scripted.server.script(reply.json(503, { error: { message: 'busy' } }, { 'retry-after': '1' }), reply.sse([chunk('after the wait', 'stop'), 'data: [DONE]\n\n']));
    const result = await runSvc(['chat', '--no-save', 'x'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('after the wait\n');
    expect(scripted.server.requests).toHaveLength(2);
    // Retry-After: 1 means one second, not the backoff's half second.
    expect(result.retryWaits).toEqual([1000]);
  });

  it('a stream with neither [DONE] nor finish_reason is interrupted (exit 6), its text kept', async () => {
    scripted.server.script(reply.sse([chunk('no end '), chunk('in sight')]));
    const result = await runSvc(['chat', '--session', 'no-end', 'x'], sandbox);
    expect(result.exitCode).toBe(6);
    expect(result.stdout).toBe('no end in sight\n');
    expect(hasStackTrace(result.stderr)).toBe(false);
    const show = await runSvc(['sessions', 'show', 'no-end'], sandbox);
    expect(show.stdout).toContain('[assistant, interrupted]\nno end in sight');
  });

  it('a connection reset before the headers is retried, then succeeds', async () => {
    scripted.server.script(reply.reset(), reply.sse([chunk('second try', 'stop'), 'data: [DONE]\n\n']));
    const result = await runSvc(['chat', '--no-save', 'x'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('second try\n');
    expect(scripted.server.requests).toHaveLength(2);
  });

  it('without --no-stdin, a silent pipe gets a notice with the way out, and Ctrl-C leaves at once', async () => {
    // A pipe that stays open and silent (a `while read` loop, some CI runners); reading it is the
    // sign that svc is waiting for it. The notice is a timer: fake time makes its wait exact.
    let startedReading = () => {};
    const reading = new Promise<void>((resolve) => (startedReading = resolve));
    const stdin = new Readable({ read: () => startedReading() });
    // Ctrl-C as the process wires it (src/cli.ts): nobody else takes it, so it stops svc.
    const controller = new AbortController();
    const interrupts = new InterruptRouter(() => controller.abort());
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const run = runSvc(['chat', '--no-save', 'words'], sandbox, { stdin, stdinKind: 'pipe', signal: controller.signal, interrupts });
      await reading;
      await vi.advanceTimersByTimeAsync(QUIET_STDIN_NOTICE_MS);
      interrupts.dispatch();
      const result = await run;
      expect(result.exitCode).toBe(130);
      expect(result.stderr).toBe('svc: still waiting for stdin to end (words were given too); if nothing is coming, pass --no-stdin or </dev/null\nsvc: interrupted\n');
      expect(result.stdout).toBe('');
      // Nothing was sent: the prompt was never complete (the scripted server has no answer for it).
      expect(scripted.server.requests).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});
