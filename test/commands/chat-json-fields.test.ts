/**
 * `svc chat --json` keeps every field the service sent, adding only what assembling a stream
 * needs; for a whole completion it is the service's object.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

let server: ScriptedServer;
let sandbox: Sandbox;

beforeAll(async () => {
  server = await startScriptedServer();
  sandbox = makeSandbox({ SVC_API_KEY: 'sk-json', SVC_MAX_RETRIES: '0' });
  sandbox.env.SVC_BASE_URL = server.baseUrl;
});
afterAll(async () => {
  await server.close();
  sandbox.cleanup();
});

const logprob = (token: string) => ({ token, logprob: -0.5, bytes: [...Buffer.from(token)], top_logprobs: [] });

describe('svc chat --json keeps what the service sent', () => {
  it('a whole completion comes out as the service sent it', async () => {
    const body = {
      id: 'chatcmpl-7',
      object: 'chat.completion',
      created: 1700000000,
      model: 'svc-pro-2024',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.', annotations: [] }, logprobs: { content: [logprob('Hi'), logprob('.')] }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7, prompt_tokens_details: { cached_tokens: 0 } },
      system_fingerprint: 'fp_44709d6fcb',
      service_tier: 'default',
      timings: { prompt_n: 5, predicted_n: 2, predicted_per_second: 41.2 },
    };
    server.script(reply.json(200, body));
    const result = await runSvc(['chat', '--no-save', '--no-stream', '--json', 'hi'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(body);
  });

  it('a stream keeps the chunks\' top-level fields, the choice\'s logprobs and the usage details', async () => {
    const base = { id: 'chatcmpl-s', object: 'chat.completion.chunk', created: 1700000001, model: 'svc-pro-2024', system_fingerprint: 'fp_1' };
    const events = [
      { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }], usage: null },
      { ...base, choices: [{ index: 0, delta: { content: 'Hel' }, logprobs: { content: [logprob('Hel')] }, finish_reason: null }], usage: null },
      { ...base, choices: [{ index: 0, delta: { content: 'lo', reasoning_content: undefined }, logprobs: { content: [logprob('lo')] }, finish_reason: null }], usage: null },
      { ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }], usage: null, timings: { predicted_n: 2 } },
      { ...base, choices: [], usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6, completion_tokens_details: { reasoning_tokens: 0 } } },
    ];
    server.script(reply.sse([...events.map((event) => `data: ${JSON.stringify(event)}\n\n`), 'data: [DONE]\n\n']));
    const result = await runSvc(['chat', '--no-save', '--json', 'hi'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      id: 'chatcmpl-s',
      object: 'chat.completion',
      created: 1700000001,
      model: 'svc-pro-2024',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, logprobs: { content: [logprob('Hel'), logprob('lo')] }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6, completion_tokens_details: { reasoning_tokens: 0 } },
      system_fingerprint: 'fp_1',
      timings: { predicted_n: 2 },
    });
  });

  it('streamed reasoning text is joined like the reply', async () => {
    const delta = (fields: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: fields, finish_reason: finish }] })}\n\n`;
    server.script(reply.sse([delta({ reasoning_content: 'Think' }), delta({ reasoning_content: 'ing.' }), delta({ content: 'Answer.' }, 'stop'), 'data: [DONE]\n\n']));
    const result = await runSvc(['chat', '--no-save', '--json', 'hi'], sandbox);
    const printed = JSON.parse(result.stdout) as { choices: Array<{ message: Record<string, unknown> }> };
    expect(printed.choices[0]!.message).toEqual({ role: 'assistant', content: 'Answer.', reasoning_content: 'Thinking.' });
  });

  it('a saved turn keeps only the three token counts', async () => {
    server.script(reply.json(200, {
      id: 'c', object: 'chat.completion', created: 1, model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, prompt_tokens_details: { cached_tokens: 0 } },
    }));
    const result = await runSvc(['chat', '--session', 'counts', '--no-stream', 'hi'], sandbox);
    expect(result.exitCode).toBe(0);
    const saved = readFileSync(join(sandbox.env.XDG_DATA_HOME!, 'svc', 'conversations', 'counts.jsonl'), 'utf8');
    expect(saved).toContain('"total_tokens":2');
    expect(saved).not.toContain('cached_tokens');
  });
});
