/**
 * `svc chat` (in-process) against a scripted server, for what the emulator cannot show: the exact
 * body sent, and faults (rate limits, timeouts, cut streams, hostile text). Hostile text on a
 * real pseudo-terminal is in test/e2e/chat-tty.e2e.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { chunk, reply, useScriptedServer } from '../helpers/scripted-server.js';
import { hasStackTrace, makeSandbox, type Sandbox } from '../helpers/run-svc.js';

const KEY = 'fault-key-0123456789abcdef';
const scripted = useScriptedServer();
let sandbox: Sandbox;
const completion = (content: string) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'svc-pro',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});

beforeAll(() => {
  sandbox = makeSandbox({ SVC_BASE_URL: `${scripted.server.baseUrl}/gateway/`, SVC_API_KEY: KEY });
});
afterAll(() => sandbox.cleanup());

const sentBody = () => JSON.parse(scripted.server.requests[0]?.body ?? '{}');

describe('what svc chat sends', () => {
  it('every option reaches the service with the right JSON type', async () => {
    scripted.server.script(reply.json(200, completion('ok')));
    const result = await runSvc(
      ['chat', '--no-stream', '-m', 'svc-mini', '-s', 'be brief', '--max-tokens', '42', '-t', '0.5', '--top-p', '0.9', '--stop', 'END', '--stop', 'STOP', '--presence-penalty', '-1', '--frequency-penalty', '1.5', '--user', 'u-7', 'the', 'question'],
      sandbox,
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('ok\n');
    expect(scripted.server.requests[0]?.url).toBe('/gateway/v1/chat/completions');
    expect(scripted.server.requests[0]?.headers['user-agent']).toMatch(/^svc\/\d+\.\d+\.\d+/);
    expect(sentBody()).toEqual({
      model: 'svc-mini',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'the question' },
      ],
      max_tokens: 42,
      temperature: 0.5,
      top_p: 0.9,
      stop: ['END', 'STOP'],
      presence_penalty: -1,
      frequency_penalty: 1.5,
      user: 'u-7',
    });
  });

  it('streams by default and asks for usage in the stream', async () => {
    scripted.server.script(reply.sse([chunk('hi', 'stop'), 'data: [DONE]\n\n']));
    await runSvc(['chat', 'x'], sandbox);
    expect(sentBody()).toMatchObject({ stream: true, stream_options: { include_usage: true }, model: 'svc-pro' });
  });

  it('words then piped stdin after a blank line; --no-stdin ignores the pipe', async () => {
    scripted.server.script(reply.json(200, completion('ok')));
    await runSvc(['chat', '--no-stream', 'summarise'], sandbox, { stdin: 'line 1\nline 2\n' });
    expect(sentBody().messages).toEqual([{ role: 'user', content: 'summarise\n\nline 1\nline 2' }]);
    scripted.server.requests.length = 0;
    scripted.server.script(reply.json(200, completion('ok')));
    await runSvc(['chat', '--no-stream', '--no-stdin', 'summarise'], sandbox, { stdin: 'ignored' });
    expect(sentBody().messages).toEqual([{ role: 'user', content: 'summarise' }]);
  });

  it('model precedence: flag over SVC_MODEL over stored setting', async () => {
    scripted.server.script(reply.repeat(reply.json(200, completion('ok'))));
    await runSvc(['config', 'set', 'model', 'stored-model'], sandbox);
    await runSvc(['chat', '--no-stream', 'x'], sandbox);
    expect(sentBody().model).toBe('stored-model');
    scripted.server.requests.length = 0;
    await runSvc(['chat', '--no-stream', 'x'], sandbox, { env: { SVC_MODEL: 'env-model' } });
    expect(sentBody().model).toBe('env-model');
    scripted.server.requests.length = 0;
    await runSvc(['chat', '--no-stream', '-m', 'flag-model', 'x'], sandbox, { env: { SVC_MODEL: 'env-model' } });
    expect(sentBody().model).toBe('flag-model');
    await runSvc(['config', 'unset', 'model'], sandbox);
  });

  it('a usage error sends nothing', async () => {
    const result = await runSvc(['chat', '-t', '3', 'x'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(scripted.server.requests).toHaveLength(0);
  });
});

describe('svc chat exit codes under faults', () => {
  it('429 after every retry is exit 5', async () => {
    scripted.server.script(reply.repeat(reply.json(429, { error: { message: 'Rate limit reached' } }, { 'retry-after-ms': '10' })));
    const result = await runSvc(['chat', 'x'], sandbox);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('Rate limit reached');
    expect(scripted.server.requests).toHaveLength(3);
  });

  it('500 then success is a success', async () => {
    scripted.server.script(reply.json(500, { error: { message: 'flaky' } }, { 'retry-after-ms': '10' }), reply.json(200, completion('recovered')));
    const result = await runSvc(['chat', '--no-stream', 'x'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('recovered\n');
  });

  it('a 5xx after retries is exit 1', async () => {
    scripted.server.script(reply.repeat(reply.json(503, { error: { message: 'down for maintenance' } }, { 'retry-after-ms': '10' })));
    const result = await runSvc(['chat', 'x'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('down for maintenance');
    expect(scripted.server.requests).toHaveLength(3);
  });

  it('a 400 is exit 4 with the service message and request id', async () => {
    scripted.server.script(reply.json(400, { error: { message: "Invalid 'temperature'", param: 'temperature' } }, { 'x-request-id': 'req_abc' }));
    const result = await runSvc(['chat', 'x'], sandbox);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain("Invalid 'temperature' (HTTP 400, request id req_abc)");
  });

  it('an HTML page from a proxy shows its title and a hint, not the page', async () => {
    scripted.server.script(reply.text(502, '<html><title>502 Bad Gateway</title><body>nginx internals</body></html>', 'text/html'));
    const result = await runSvc(['chat', '--max-retries', '0', 'x'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('502 Bad Gateway');
    expect(result.stderr).toContain('proxy');
    expect(result.stderr).not.toContain('nginx internals');
  });

  it('no answer within --timeout is exit 6', async () => {
    scripted.server.script(reply.silent());
    const result = await runSvc(['chat', '--timeout', '0.3', 'x'], sandbox);
    expect(result.exitCode).toBe(6);
    expect(result.stderr).toContain('timeout');
  });

  it('a stream cut mid-way is exit 6 with the partial text kept on stdout', async () => {
    scripted.server.script(reply.sse([chunk('partial '), chunk('answer')], { cut: true }));
    const result = await runSvc(['chat', 'x'], sandbox);
    expect(result.exitCode).toBe(6);
    expect(result.stdout).toBe('partial answer\n');
    expect(result.stderr).toContain('stream interrupted');
    expect(hasStackTrace(result.stderr)).toBe(false);
  });

  it('an error event mid-stream is exit 1 after the text so far', async () => {
    scripted.server.script(reply.sse([chunk('so far'), 'data: {"error":{"message":"model overloaded"}}\n\n']));
    const result = await runSvc(['chat', 'x'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('so far\n');
    expect(result.stderr).toContain('model overloaded');
  });

  it('malformed JSON is exit 1 with a clear message', async () => {
    scripted.server.script(reply.text(200, '{"choices": [', 'application/json'));
    const result = await runSvc(['chat', '--no-stream', 'x'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('not JSON');
  });
});

describe('hostile model text', () => {
  const hostile = 'safe \u001b]0;pwned\u0007 \u001b]52;c;ZXZpbA==\u0007 \u001b[2J done';

  it('is exact in a pipe', async () => {
    scripted.server.script(reply.json(200, completion(hostile)));
    const result = await runSvc(['chat', '--no-stream', 'x'], sandbox);
    expect(result.stdout).toBe(`${hostile}\n`);
  });

  it('is neutralised when stdout is a terminal (--raw: rendered replies are checked in chat-render.test.ts)', async () => {
    scripted.server.script(reply.sse([chunk(hostile, 'stop'), 'data: [DONE]\n\n']));
    const result = await runSvc(['chat', '--raw', 'x'], sandbox, { stdoutIsTTY: true });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('safe ␛]0;pwned␇ ␛]52;c;ZXZpbA==␇ ␛[2J done\n');
  });
});
