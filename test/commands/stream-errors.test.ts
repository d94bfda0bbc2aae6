/**
 * Errors inside a 200 stream, in every shape servers send them (issue 21, item 3), and a stream
 * cut before its first event (item 6). Each shows the server's own message, keeps the text that
 * came before it, and exits 4 for a problem with the request or 1 for the service failing; a
 * stream that never began is a network failure, exit 6. Never "without choices", never a silent
 * exit 0 with the reply cut short, never an "empty answer".
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, startScriptedServer, type Handler, type ScriptedServer } from '../helpers/scripted-server.js';

let server: ScriptedServer;
let sandbox: Sandbox;

beforeAll(async () => {
  server = await startScriptedServer();
  sandbox = makeSandbox({ SVC_API_KEY: 'sk-stream-errors', SVC_MAX_RETRIES: '0' });
  sandbox.env.SVC_BASE_URL = server.baseUrl;
});
afterAll(async () => {
  await server.close();
  sandbox.cleanup();
});

const done = 'data: [DONE]\n\n';
/** llama.cpp's way: an `error:` field line, a blank line, then [DONE]. */
const errorLine = (value: unknown): string => `error: ${JSON.stringify(value)}\n\n`;

async function chat(handler: Handler, flags: string[] = []) {
  server.script(handler);
  return runSvc(['chat', '--no-save', ...flags, 'hello there'], sandbox);
}

describe("llama.cpp's `error:` line", () => {
  it('before any text: the server message, exit 4 for a request problem (4xx code), nothing on stdout', async () => {
    const result = await chat(reply.sse([errorLine({ code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error' }), done]));
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('error: the service reported an error before the reply began: the request exceeds the available context size, try increasing it');
    expect(result.stderr).not.toContain('without choices');
  });

  it('after partial text: the text stays on stdout, the message on stderr, exit 1 for a server error', async () => {
    const result = await chat(reply.sse([chunk('The first '), chunk('words'), errorLine({ code: 500, message: 'slot 0 crashed', type: 'server_error' }), done]));
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('The first words\n');
    expect(result.stderr).toContain('the service reported an error mid-reply: slot 0 crashed');
  });

  it('an `invalid_request_error` type is a request problem even without a code', async () => {
    const result = await chat(reply.sse([errorLine({ message: 'bad grammar', type: 'invalid_request_error' }), done]));
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('bad grammar');
  });

  it('an error line with no blank line before [DONE] still wins over the data', async () => {
    const result = await chat(reply.sse([chunk('so far'), 'error: {"code":503,"message":"loading model"}\ndata: [DONE]\n\n']));
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('so far\n');
    expect(result.stderr).toContain('loading model');
  });

  it('--json prints the partial reply before the error', async () => {
    const result = await chat(reply.sse([chunk('half'), errorLine({ code: 500, message: 'boom' }), done]), ['--json']);
    expect(result.exitCode).toBe(1);
    const printed = JSON.parse(result.stdout) as { choices: Array<{ message: { content: string }; finish_reason: string | null }> };
    expect(printed.choices[0]!.message.content).toBe('half');
    expect(printed.choices[0]!.finish_reason).toBeNull();
    expect(result.stderr).toContain('boom');
  });
});

describe('`event: error` and `data: {"error": …}`', () => {
  it('`event: error` then its data: the message, exit 1', async () => {
    const result = await chat(reply.sse([chunk('partial'), 'event: error\ndata: {"error":{"message":"overloaded","type":"server_error"}}\n\n']));
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('partial\n');
    expect(result.stderr).toContain('the service reported an error mid-reply: overloaded');
  });

  it('`event: error` with a 4xx code: exit 4', async () => {
    const result = await chat(reply.sse(['event: error\ndata: {"error":{"message":"prompt too long","code":413}}\n\n']));
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('prompt too long');
  });

  it('`event: error` whose data is not JSON: the text itself is the message', async () => {
    const result = await chat(reply.sse([chunk('a'), 'event: error\ndata: upstream went away\n\n']));
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('upstream went away');
  });

  it('`data: {"error": …}` with `invalid_request_error`: exit 4', async () => {
    const result = await chat(reply.sse([`data: ${JSON.stringify({ error: { message: 'max_tokens is too large', type: 'invalid_request_error', param: 'max_tokens' } })}\n\n`]));
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('max_tokens is too large');
  });
});

describe('a stream that never began (item 6)', () => {
  it('headers, then the connection cut: exit 6, "closed before the reply began"', async () => {
    const cutStream: Handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      res.write('', () => res.socket?.destroy());
    };
    const result = await chat(cutStream);
    expect(result.exitCode).toBe(6);
    expect(result.stderr).toContain('closed before the reply began');
    expect(result.stderr).not.toContain('empty answer');
  });

  it('headers, then a clean end with no event: the same', async () => {
    const result = await chat(reply.text(200, '', 'text/event-stream'));
    expect(result.exitCode).toBe(6);
    expect(result.stderr).toContain('closed before the reply began');
  });

  it('a JSON answer cut after its headers says the same', async () => {
    const cutJson: Handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.flushHeaders();
      res.write('', () => res.socket?.destroy());
    };
    const result = await chat(cutJson, ['--no-stream']);
    expect(result.exitCode).toBe(6);
    expect(result.stderr).toContain('closed before the reply began');
  });

  it('no answer at all (the connection closed at once): exit 6, said plainly', async () => {
    const result = await chat(reply.reset());
    expect(result.exitCode).toBe(6);
    expect(result.stderr).toContain(`the connection to ${server.baseUrl} was closed before any answer`);
    expect(result.stderr).not.toContain('UND_ERR');
  });

  it('a cut after some text is still "interrupted", with the text kept', async () => {
    const result = await chat(reply.sse([chunk('some')], { cut: true }));
    expect(result.exitCode).toBe(6);
    expect(result.stdout).toBe('some\n');
    expect(result.stderr).toContain('stream interrupted');
  });
});

describe('the saved conversation', () => {
  it('keeps the partial reply of a stream that reported an error', async () => {
    server.script(reply.sse([chunk('kept '), chunk('text'), errorLine({ code: 500, message: 'gone' }), done]));
    const result = await runSvc(['chat', '--session', 'stream-error', 'hello there'], sandbox);
    expect(result.exitCode).toBe(1);
    const dir = join(sandbox.env.XDG_DATA_HOME!, 'svc', 'conversations');
    expect(existsSync(dir) && readdirSync(dir)).toContain('stream-error.jsonl');
    expect(readFileSync(join(dir, 'stream-error.jsonl'), 'utf8')).toContain('kept text');
  });
});
