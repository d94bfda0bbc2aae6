/**
 * `svc chat` against answers a real service, or something in its place, can send: `error: null`,
 * no choices or no content, an HTML page, a wrong Content-Type, fields svc does not know. Each
 * ends with the documented exit code and a clear message, and no empty turn is saved.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, startScriptedServer, type Handler, type ScriptedServer } from '../helpers/scripted-server.js';

let server: ScriptedServer;
let sandbox: Sandbox;

beforeAll(async () => {
  server = await startScriptedServer();
  sandbox = makeSandbox({ SVC_API_KEY: 'sk-answers', SVC_MAX_RETRIES: '0' });
  sandbox.env.SVC_BASE_URL = server.baseUrl;
});
afterAll(async () => {
  await server.close();
  sandbox.cleanup();
});

function savedConversations(): string[] {
  const dir = join(sandbox.env.XDG_DATA_HOME!, 'svc', 'conversations');
  return existsSync(dir) ? readdirSync(dir) : [];
}

/** Run `svc chat` (saving) against `handler`; also says whether a conversation was saved. */
async function chat(handler: Handler, flags: string[] = []) {
  server.script(handler);
  const before = savedConversations().length;
  const result = await runSvc(['chat', ...flags, 'hello there'], sandbox);
  return { ...result, saved: savedConversations().length - before };
}

function completion(message: Record<string, unknown>, extra: Record<string, unknown> = {}, finish: string | null = 'stop') {
  return { id: 'chatcmpl-a', object: 'chat.completion', created: 7, model: 'svc-pro', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }], ...extra };
}

const done = 'data: [DONE]\n\n';
const event = (value: unknown): string => `data: ${JSON.stringify(value)}\n\n`;

describe('error: null is a normal answer', () => {
  it('in a whole completion (several servers send it in every answer)', async () => {
    const result = await chat(reply.json(200, completion({ content: 'hi back' }, { error: null })), ['--no-stream']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('hi back\n');
    expect(result.saved).toBe(1);
  });

  it('in stream chunks', async () => {
    const result = await chat(reply.sse([chunk('hi ', null, { error: null }), chunk('back', 'stop', { error: null }), done]));
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('hi back\n');
  });
});

describe('an answer with no reply in it: the same error streamed or not, nothing saved; an empty reply is a reply', () => {
  const cases: Array<{ name: string; plain: Handler; streamed: Handler; exit: number; message: RegExp }> = [
    {
      name: 'choices: []',
      plain: reply.json(200, { id: 'x', object: 'chat.completion', created: 1, model: 'm', choices: [] }),
      streamed: reply.sse([event({ id: 'x', choices: [] }), event({ id: 'x', choices: [], usage: { prompt_tokens: 1, completion_tokens: 0, total_tokens: 1 } }), done]),
      exit: 1,
      message: /without choices: no reply came back/,
    },
    {
      name: 'content null beside a refusal',
      plain: reply.json(200, completion({ content: null, refusal: "I can't help with that." })),
      streamed: reply.sse([
        chunk(undefined, null, { choices: [{ index: 0, delta: { role: 'assistant', content: null, refusal: "I can't " }, finish_reason: null }] }),
        chunk(undefined, null, { choices: [{ index: 0, delta: { refusal: 'help with that.' }, finish_reason: null }] }),
        chunk(undefined, 'stop'),
        done,
      ]),
      exit: 4,
      message: /the model declined to answer: I can't help with that\./,
    },
    {
      name: 'content null beside a tool call',
      plain: reply.json(200, completion({ content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] }, {}, 'tool_calls')),
      streamed: reply.sse([
        chunk(undefined, null, { choices: [{ index: 0, delta: { role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }, finish_reason: null }] }),
        chunk(undefined, null, { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{}' } }] }, finish_reason: null }] }),
        chunk(undefined, 'tool_calls'),
        done,
      ]),
      exit: 1,
      message: /tool call \(get_weather\) instead of text/,
    },
    {
      name: 'a reply the content filter withheld',
      plain: reply.json(200, completion({ content: null }, {}, 'content_filter')),
      streamed: reply.sse([chunk('', 'content_filter'), done]),
      exit: 4,
      message: /content filter withheld the reply/,
    },
  ];

  for (const { name, plain, streamed, exit, message } of cases) {
    it(name, async () => {
      const results = [await chat(plain, ['--no-stream']), await chat(streamed)];
      for (const result of results) {
        expect(result.exitCode).toBe(exit);
        expect(result.stderr).toMatch(message);
        expect(result.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
        expect(result.stdout).toBe('');
        expect(result.saved).toBe(0);
      }
      // The same words in both modes.
      expect(results[0]!.stderr).toBe(results[1]!.stderr);
    });
  }

  // Issue 21, item 5: an empty reply is a reply. Exit 0, one stderr line saying it was empty and why.
  it('a choice with no content, streamed or not: exit 0 and one line saying the reply was empty', async () => {
    const plain = await chat(reply.json(200, completion({ content: null })), ['--no-stream']);
    const streamed = await chat(reply.sse([chunk(undefined, null, { choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: null }] }), chunk(undefined, 'stop'), done]));
    for (const result of [plain, streamed]) {
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe('svc: the reply was empty (finish_reason: stop)\n');
    }
  });

  it('no content and the token limit reached: exit 0, says to raise --max-tokens', async () => {
    const result = await chat(reply.json(200, completion({ content: null }, {}, 'length')), ['--no-stream']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('svc: the reply was empty: the token limit was reached first (finish_reason: length); raise --max-tokens\n');
  });

  it('an empty string is a reply (a --stop that matched at once): exit 0, and stderr says it was empty', async () => {
    const result = await chat(reply.json(200, completion({ content: '' })), ['--no-stream']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('svc: the reply was empty (finish_reason: stop)\n');
  });

  it('text and then the content filter: the text stays, exit 0, and stderr says it was cut', async () => {
    const result = await chat(reply.sse([chunk('part of it'), chunk(undefined, 'content_filter'), done]));
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('part of it\n');
    expect(result.stderr).toBe("svc: the service's content filter cut the reply (finish_reason: content_filter)\n");
  });
});

describe('an HTML page instead of the answer (captive portal, proxy login)', () => {
  const page = '<!DOCTYPE html>\n<html><head><title>Hotel Wi-Fi &amp; Login</title></head><body><form>…</form></body></html>';

  for (const [mode, flags] of [['streaming', []], ['plain', ['--no-stream']]] as const) {
    it(`says so with the base-URL/proxy hint (${mode})`, async () => {
      const result = await chat(reply.text(200, page, 'text/html; charset=utf-8'), [...flags]);
      expect(result.exitCode).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('error: an HTML page ("Hotel Wi-Fi & Login") came back instead of the service\'s answer');
      expect(result.stderr).toMatch(/captive portal.*HTTPS_PROXY.*base URL/);
      expect(result.stderr).not.toContain('<form>');
      expect(result.saved).toBe(0);
    });
  }

  it('is recognised by its first bytes whatever the Content-Type says', async () => {
    const result = await chat(reply.text(200, `\n  ${page}`, 'text/event-stream'));
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('an HTML page ("Hotel Wi-Fi & Login") came back');
  });
});

describe('the body says what it is when the Content-Type does not', () => {
  it('an event stream labelled application/json is read as a stream', async () => {
    const result = await chat(reply.text(200, `${chunk('streamed ')}${chunk('anyway', 'stop')}${done}`, 'application/json'));
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('streamed anyway\n');
  });

  it('a whole completion labelled text/event-stream is read as JSON', async () => {
    const result = await chat(reply.text(200, JSON.stringify(completion({ content: 'whole' })), 'text/event-stream'));
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('whole\n');
  });

  it('a stream answering --no-stream is read as a stream', async () => {
    const result = await chat(reply.sse([chunk('still '), chunk('fine', 'stop'), done]), ['--no-stream']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('still fine\n');
  });

  it('plain text answering a streaming request is quoted, not taken for a stream cut short', async () => {
    const result = await chat(reply.text(200, 'OK', 'text/plain'));
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('error: the service sent an answer that is not JSON: "OK"');
  });

  it('a declared charset other than UTF-8 is not applied: JSON and SSE are UTF-8', async () => {
    const result = await chat(reply.text(200, JSON.stringify(completion({ content: 'café ☕' })), 'application/json; charset=iso-8859-1'), ['--no-stream']);
    expect(result.stdout).toBe('café ☕\n');
  });

  it('a byte-order mark before the JSON is skipped', async () => {
    const result = await chat(reply.text(200, `\uFEFF${JSON.stringify(completion({ content: 'bom' }))}`, 'application/json'), ['--no-stream']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('bom\n');
  });
});

describe('answers that are not a completion', () => {
  it.each([
    ['an array', [completion({ content: 'x' })], /not a chat completion: it is an array/],
    ['null', null, /not a chat completion: it is null/],
  ])('a JSON answer that is %s', async (_name, body, message) => {
    const result = await chat(reply.json(200, body), ['--no-stream']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.saved).toBe(0);
  });

  it('a 200 with an empty body (plain): an empty answer, exit 1', async () => {
    const result = await chat(reply.text(200, '', 'application/json'), ['--no-stream']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/the service sent an empty answer/);
    expect(result.saved).toBe(0);
  });

  it('a 200 with an empty body (streaming): the stream never began, exit 6 (issue 21, item 6)', async () => {
    const result = await chat(reply.text(200, '', 'text/event-stream'));
    expect(result.exitCode).toBe(6);
    expect(result.stderr).toContain('closed before the reply began');
    expect(result.saved).toBe(0);
  });

  it('an error object in a 200 body is the service\'s error, in its words', async () => {
    const result = await chat(reply.json(200, { error: { message: 'model is overloaded', type: 'server_error' } }), ['--no-stream']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('error: the service reported an error: model is overloaded');
  });

  it('an error object in a stream event is the service\'s error, after the text so far', async () => {
    const result = await chat(reply.sse([chunk('so far'), event({ error: { message: 'the model crashed' } })]));
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('so far\n');
    expect(result.stderr).toContain('the service reported an error mid-reply: the model crashed');
  });
});

describe('a 404 from something that is not the chat endpoint', () => {
  it("llama.cpp's {error:{code:404,message:'File Not Found'}} shows the URL and the base-URL hint", async () => {
    const result = await chat(reply.json(404, { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } }));
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain(`not found: ${server.baseUrl}/v1/chat/completions (File Not Found)`);
    expect(result.stderr).toContain('check the base URL');
  });

  it('a 404 about the model stays the service\'s own words', async () => {
    const message = "The model 'svc-nope' does not exist or you do not have access to it.";
    const result = await chat(reply.json(404, { error: { message, type: 'invalid_request_error', code: 'model_not_found' } }));
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain(`error: ${message}`);
    expect(result.stderr).not.toContain('check the base URL');
  });

  it('a 405 (a web server that takes no POST there) points at the base URL too', async () => {
    const result = await chat(reply.json(405, { error: { code: 405, message: 'Method Not Allowed' } }));
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain(`${server.baseUrl}/v1/chat/completions (Method Not Allowed)`);
    expect(result.stderr).toContain('check the base URL');
  });
});
