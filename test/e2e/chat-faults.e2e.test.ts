/**
 * `svc chat` against a scripted server, for what the emulator cannot show: the exact body sent,
 * and faults (rate limits, timeouts, cut streams, hostile text).
 */
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chunk, reply, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { hasStackTrace, makeSandbox, SVC_BIN, svc, type Sandbox } from '../helpers/run-svc.js';

const KEY = 'fault-key-0123456789abcdef';
let server: ScriptedServer;
let sandbox: Sandbox;
const completion = (content: string) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'svc-pro',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});

beforeAll(async () => {
  server = await startScriptedServer(reply.json(200, completion('ok')));
  sandbox = makeSandbox({ SVC_BASE_URL: `${server.baseUrl}/gateway/`, SVC_API_KEY: KEY });
});
afterAll(async () => {
  await server.close();
  sandbox.cleanup();
});
afterEach(() => {
  server.requests.length = 0;
});

const sentBody = () => JSON.parse(server.requests[0]?.body ?? '{}');

describe('what svc chat sends', () => {
  it('every option reaches the service with the right JSON type', async () => {
    server.script(reply.json(200, completion('ok')));
    const result = await svc(
      ['chat', '--no-stream', '-m', 'svc-mini', '-s', 'be brief', '--max-tokens', '42', '-t', '0.5', '--top-p', '0.9', '--stop', 'END', '--stop', 'STOP', '--presence-penalty', '-1', '--frequency-penalty', '1.5', '--user', 'u-7', 'the', 'question'],
      sandbox,
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('ok');
    expect(server.requests[0]?.url).toBe('/gateway/v1/chat/completions');
    expect(server.requests[0]?.headers['user-agent']).toMatch(/^svc\/\d+\.\d+\.\d+/);
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
    server.script(reply.sse([chunk('hi', 'stop'), 'data: [DONE]\n\n']));
    await svc(['chat', 'x'], sandbox);
    expect(sentBody()).toMatchObject({ stream: true, stream_options: { include_usage: true }, model: 'svc-pro' });
  });

  it('words then piped stdin after a blank line; --no-stdin ignores the pipe', async () => {
    server.script(reply.json(200, completion('ok')));
    await svc(['chat', '--no-stream', 'summarise'], sandbox, { input: 'line 1\nline 2\n' });
    expect(sentBody().messages).toEqual([{ role: 'user', content: 'summarise\n\nline 1\nline 2' }]);
    server.requests.length = 0;
    await svc(['chat', '--no-stream', '--no-stdin', 'summarise'], sandbox, { input: 'ignored' });
    expect(sentBody().messages).toEqual([{ role: 'user', content: 'summarise' }]);
  });

  it('model precedence: flag over SVC_MODEL over stored setting', async () => {
    server.script(reply.json(200, completion('ok')));
    await svc(['config', 'set', 'model', 'stored-model'], sandbox);
    await svc(['chat', '--no-stream', 'x'], sandbox);
    expect(sentBody().model).toBe('stored-model');
    server.requests.length = 0;
    await svc(['chat', '--no-stream', 'x'], { ...sandbox, env: { ...sandbox.env, SVC_MODEL: 'env-model' } });
    expect(sentBody().model).toBe('env-model');
    server.requests.length = 0;
    await svc(['chat', '--no-stream', '-m', 'flag-model', 'x'], { ...sandbox, env: { ...sandbox.env, SVC_MODEL: 'env-model' } });
    expect(sentBody().model).toBe('flag-model');
    await svc(['config', 'unset', 'model'], sandbox);
  });

  it('a usage error sends nothing', async () => {
    const result = await svc(['chat', '-t', '3', 'x'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(server.requests).toHaveLength(0);
  });
});

describe('svc chat exit codes under faults', () => {
  it('429 after every retry is exit 5', async () => {
    server.script(reply.json(429, { error: { message: 'Rate limit reached' } }, { 'retry-after-ms': '10' }));
    const result = await svc(['chat', 'x'], sandbox);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('Rate limit reached');
    expect(server.requests).toHaveLength(3);
  });

  it('500 then success is a success', async () => {
    server.script(reply.json(500, { error: { message: 'flaky' } }, { 'retry-after-ms': '10' }), reply.json(200, completion('recovered')));
    const result = await svc(['chat', '--no-stream', 'x'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('recovered');
  });

  it('a 5xx after retries is exit 1', async () => {
    server.script(reply.json(503, { error: { message: 'down for maintenance' } }, { 'retry-after-ms': '10' }));
    const result = await svc(['chat', 'x'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('down for maintenance');
  });

  it('a 400 is exit 4 with the service message and request id', async () => {
    server.script(reply.json(400, { error: { message: "Invalid 'temperature'", param: 'temperature' } }, { 'x-request-id': 'req_abc' }));
    const result = await svc(['chat', 'x'], sandbox);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain("Invalid 'temperature' (HTTP 400, request id req_abc)");
  });

  it('an HTML page from a proxy shows its title and a hint, not the page', async () => {
    server.script(reply.text(502, '<html><title>502 Bad Gateway</title><body>nginx internals</body></html>', 'text/html'));
    const result = await svc(['chat', '--max-retries', '0', 'x'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('502 Bad Gateway');
    expect(result.stderr).toContain('proxy');
    expect(result.stderr).not.toContain('nginx internals');
  });

  it('no answer within --timeout is exit 6', async () => {
    server.script(reply.silent());
    const result = await svc(['chat', '--timeout', '0.3', 'x'], sandbox);
    expect(result.exitCode).toBe(6);
    expect(result.stderr).toContain('timeout');
  });

  it('a stream cut mid-way is exit 6 with the partial text kept on stdout', async () => {
    server.script(reply.sse([chunk('partial '), chunk('answer')], { cut: true, delayMs: 30 }));
    const result = await svc(['chat', 'x'], sandbox, { stripFinalNewline: false });
    expect(result.exitCode).toBe(6);
    expect(result.stdout).toBe('partial answer\n');
    expect(result.stderr).toContain('stream interrupted');
    expect(hasStackTrace(result.stderr)).toBe(false);
  });

  it('an error event mid-stream is exit 1 after the text so far', async () => {
    server.script(reply.sse([chunk('so far'), 'data: {"error":{"message":"model overloaded"}}\n\n']));
    const result = await svc(['chat', 'x'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('so far');
    expect(result.stderr).toContain('model overloaded');
  });

  it('malformed JSON is exit 1 with a clear message', async () => {
    server.script(reply.text(200, '{"choices": [', 'application/json'));
    const result = await svc(['chat', '--no-stream', 'x'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('not JSON');
  });
});

describe('hostile model text', () => {
  const hostile = 'safe \u001b]0;pwned\u0007 \u001b]52;c;ZXZpbA==\u0007 \u001b[2J done';

  it('is exact in a pipe', async () => {
    server.script(reply.json(200, completion(hostile)));
    const result = await svc(['chat', '--no-stream', 'x'], sandbox, { stripFinalNewline: false });
    expect(result.stdout).toBe(`${hostile}\n`);
  });

  it('is neutralised on a pseudo-terminal', async () => {
    server.script(reply.sse([chunk(hostile, 'stop'), 'data: [DONE]\n\n']));
    // util-linux `script` gives svc a real pseudo-terminal as stdin, stdout and stderr.
    const result = await execa('script', ['-qec', `stty cols 80 rows 24; node "${SVC_BIN}" chat x`, '/dev/null'], {
      env: { ...sandbox.env, TERM: 'xterm' },
      extendEnv: false,
      reject: false,
      timeout: 20_000,
      stdin: 'ignore',
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('safe ␛]0;pwned␇ ␛]52;c;ZXZpbA==␇ ␛[2J done');
    expect(result.stdout).not.toContain('\u001b]0;pwned');
    expect(result.stdout).not.toContain('\u001b]52');
  });
});
