/**
 * Reasoning text (`reasoning_content` from llama.cpp and DeepSeek, `reasoning` from OpenRouter
 * and vLLM), issue 21 item 5: on a terminal shown dim above the answer; in a pipe never on stdout,
 * on stderr only with --show-reasoning; kept in --json and in the saved turn, never sent back.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

let server: ScriptedServer;
let sandbox: Sandbox;

beforeAll(async () => {
  server = await startScriptedServer();
  sandbox = makeSandbox({ SVC_API_KEY: 'sk-reasoning', SVC_MAX_RETRIES: '0' });
  sandbox.env.SVC_BASE_URL = server.baseUrl;
});
afterAll(async () => {
  await server.close();
  sandbox.cleanup();
});

const done = 'data: [DONE]\n\n';
const delta = (fields: Record<string, unknown>, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: fields, finish_reason: finish }] })}\n\n`;

/** A reasoning model's stream: two pieces of thinking, then the answer. */
const thinkingThenAnswer = (field = 'reasoning_content') =>
  reply.sse([delta({ role: 'assistant', [field]: 'Two plus two. ' }), delta({ [field]: 'That is four.' }), chunk('The answer is '), chunk('4.', 'stop'), done]);

describe('in a pipe', () => {
  it('stdout is the answer alone and stderr stays quiet', async () => {
    server.script(thinkingThenAnswer());
    const result = await runSvc(['chat', '--no-save', 'what is 2+2?'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('The answer is 4.\n');
    expect(result.stderr).toBe('');
  });

  it('--show-reasoning copies the reasoning to stderr, never stdout (`reasoning` field too)', async () => {
    server.script(thinkingThenAnswer('reasoning'));
    const result = await runSvc(['chat', '--no-save', '--show-reasoning', 'what is 2+2?'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('The answer is 4.\n');
    expect(result.stderr).toBe('Two plus two. That is four.\n');
  });

  it('a reply that is not streamed: the same', async () => {
    server.script(reply.json(200, { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'Four.', reasoning_content: 'Counting.' }, finish_reason: 'stop' }] }));
    const result = await runSvc(['chat', '--no-save', '--no-stream', '--show-reasoning', 'what is 2+2?'], sandbox);
    expect(result.stdout).toBe('Four.\n');
    expect(result.stderr).toBe('Counting.\n');
  });
});

describe('on a terminal', () => {
  it('the reasoning comes first, dim and neutralised, set apart from the answer by a blank line', async () => {
    server.script(reply.sse([delta({ reasoning_content: 'Thinking \u001b]0;pwned\u0007hard.' }), chunk('Answer.', 'stop'), done]));
    const result = await runSvc(['chat', '--no-save', '--raw', 'q'], sandbox, { stdoutIsTTY: true, env: { TERM: 'xterm-256color', NO_COLOR: undefined } });
    expect(result.exitCode).toBe(0);
    const out = result.stdout;
    expect(out.indexOf('Thinking')).toBeLessThan(out.indexOf('Answer.'));
    expect(out).toContain('\u001b[2mThinking');
    expect(out).toMatch(/hard\.\u001b\[22m\n\nAnswer\./);
    // The title-setting sequence from the model is shown as text, not obeyed.
    expect(out).not.toContain('\u001b]0;');
    expect(result.stderr).toBe('');
  });

  it('without colour (NO_COLOR) it is still set apart, with no escape sequence', async () => {
    server.script(thinkingThenAnswer());
    const result = await runSvc(['chat', '--no-save', '--raw', 'q'], sandbox, { stdoutIsTTY: true, env: { TERM: 'xterm-256color', NO_COLOR: '1' } });
    expect(result.stdout).toBe('Two plus two. That is four.\n\nThe answer is 4.\n');
  });
});

describe('kept, never sent back', () => {
  it('--json keeps it in the message', async () => {
    server.script(thinkingThenAnswer());
    const result = await runSvc(['chat', '--no-save', '--json', 'q'], sandbox);
    const message = (JSON.parse(result.stdout) as { choices: Array<{ message: Record<string, unknown> }> }).choices[0]!.message;
    expect(message).toEqual({ role: 'assistant', content: 'The answer is 4.', reasoning_content: 'Two plus two. That is four.' });
    expect(result.stderr).toBe('');
  });

  it('the saved turn has it; the next turn sends only the answer', async () => {
    server.script(thinkingThenAnswer());
    expect((await runSvc(['chat', '--session', 'thinker', 'what is 2+2?'], sandbox)).exitCode).toBe(0);
    const file = readFileSync(join(sandbox.env.XDG_DATA_HOME!, 'svc', 'conversations', 'thinker.jsonl'), 'utf8');
    expect(file).toContain('"reasoning":"Two plus two. That is four."');
    server.script(reply.sse([chunk('Eight.', 'stop'), done]));
    expect((await runSvc(['chat', '--session', 'thinker', 'and doubled?'], sandbox)).exitCode).toBe(0);
    const sent = JSON.parse(server.requests.at(-1)!.body) as { messages: Array<Record<string, unknown>> };
    expect(sent.messages).toEqual([
      { role: 'user', content: 'what is 2+2?' },
      { role: 'assistant', content: 'The answer is 4.' },
      { role: 'user', content: 'and doubled?' },
    ]);
    expect(JSON.stringify(sent)).not.toContain('Two plus two');
  });
});

describe('a reply with reasoning only', () => {
  it('exit 0, nothing on stdout, one line saying it was empty and to raise --max-tokens', async () => {
    server.script(reply.sse([delta({ reasoning_content: 'Let me think about this for a long' }), delta({}, 'length'), done]));
    const result = await runSvc(['chat', '--no-save', 'q'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('svc: the reply was empty (only reasoning came back): the token limit was reached first (finish_reason: length); raise --max-tokens\n');
  });
});
