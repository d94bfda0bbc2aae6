/**
 * svc against llama.cpp's own `llama-server` (docs/real-servers.md: how to get it and a tiny
 * model): the behaviours of issue 21 that this real server shows, and the context window it
 * runs with (read from /props, warned about before a send, refused with what to do). Runs only when
 * SVC_LLAMA_SERVER (the binary) and SVC_LLAMA_MODEL (a .gguf file) are set: `npm run test:real`.
 *
 * What the server sends (recorded in docs/real-servers.md): no role chunk at the start of a
 * stream, usage in the last chunk, one slot, a prompt over the context size refused inside the
 * stream as an SSE `error:` field line followed by `data: [DONE]`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSandbox, SVC_BIN, svc, type Sandbox } from '../helpers/run-svc.js';
import { launchLlamaServer, type Launched } from './launch.js';
import { CONTEXT_EXCEEDED_HINT } from '../../src/api/context-exceeded.js';

const binary = process.env.SVC_LLAMA_SERVER;
const model = process.env.SVC_LLAMA_MODEL;
const MODEL_ALIAS = 'tiny-llama';
/**
 * A message of 60 words the tiny model's tokenizer takes as one token each, and svc's estimate
 * (4 characters a token) as three: the estimate runs ahead of the server's count, so a turn comes
 * whose warning says it will not fit while the server still takes it, and then one it refuses.
 */
const GROWING_MESSAGE = 'information '.repeat(60);
/** The line svc says before a send that will not fit the window the server gave at /props. */
const WINDOW_WARNING = "more than tiny-llama's context window of 512 (as the server says); sent anyway: svc chat --continue --compact";

/** Well over the 512-token context the server is started with. */
const OVER_LONG_PROMPT = 'word '.repeat(2000);

let server: Launched | undefined;
let sandbox: Sandbox;

/** `count` batch requests asking for 4 tokens each, custom_id q0, q1, … */
function writeRequests(name: string, count: number): string[] {
  const ids = Array.from({ length: count }, (_, n) => `q${n}`);
  const lines = ids.map((id) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { max_tokens: 4, messages: [{ role: 'user', content: id }] } }));
  writeFileSync(join(sandbox.home, name), `${lines.join('\n')}\n`);
  return ids;
}

/** `svc args | head -1` in bash: svc's own exit status, what head printed, svc's stderr. */
async function svcIntoHeadOne(args: string): Promise<{ status: number; firstLine: string; stderr: string }> {
  const piped = await execa('bash', ['-c', `node "${SVC_BIN}" ${args} 2>svc-stderr.txt | head -1; exit "\${PIPESTATUS[0]}"`], { cwd: sandbox.home, env: sandbox.env, extendEnv: false, reject: false, timeout: 60_000 });
  return { status: piped.exitCode ?? -1, firstLine: piped.stdout, stderr: readFileSync(join(sandbox.home, 'svc-stderr.txt'), 'utf8') };
}

describe.skipIf(!binary || !model)('svc against llama-server (skipped: set SVC_LLAMA_SERVER to the llama-server binary and SVC_LLAMA_MODEL to a .gguf model to run)', () => {
  beforeAll(async () => {
    server = await launchLlamaServer(binary!, model!, MODEL_ALIAS, 32);
    sandbox = makeSandbox({ SVC_BASE_URL: server.baseUrl, SVC_API_KEY: server.key, SVC_MODEL: MODEL_ALIAS });
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    sandbox?.cleanup();
  });

  it('a streamed one-shot answer (no role chunk at the start) arrives and exits 0', async () => {
    const streamed = await svc(['chat', '--no-save', '--max-tokens', '8', 'hello'], sandbox);
    expect(streamed.exitCode, streamed.stderr).toBe(0);
    expect(streamed.stdout.length).toBeGreaterThan(0);
    // The tiny model always runs to the token limit, and svc says so on stderr.
    expect(streamed.stderr).toContain('finish_reason: length');
  });

  it('with no model set, svc asks its model list and sends the one model it serves (llama-server echoes it)', async () => {
    const { SVC_MODEL: _named, ...unnamed } = sandbox.env;
    const answer = await svc(['chat', '--no-save', '--no-stream', '--json', '--max-tokens', '4', 'hello'], { ...sandbox, env: unnamed });
    expect(answer.exitCode, answer.stderr).toBe(0);
    expect((JSON.parse(answer.stdout) as { model: string }).model).toBe(MODEL_ALIAS);
  });

  it('--no-stream: the whole answer, exit 0', async () => {
    const whole = await svc(['chat', '--no-save', '--no-stream', '--max-tokens', '8', 'hello'], sandbox);
    expect(whole.exitCode, whole.stderr).toBe(0);
    expect(whole.stdout.length).toBeGreaterThan(0);
  });

  it('--json of a stream: one chat.completion with the role filled in and the usage from the last chunk', async () => {
    const json = await svc(['chat', '--no-save', '--json', '--max-tokens', '8', 'hello'], sandbox);
    expect(json.exitCode, json.stderr).toBe(0);
    const completion = JSON.parse(json.stdout);
    expect(completion).toMatchObject({ object: 'chat.completion', model: MODEL_ALIAS, choices: [{ message: { role: 'assistant' }, finish_reason: 'length' }] });
    expect(completion.usage.completion_tokens).toBe(8);
    expect(completion.choices[0].message.content.length).toBeGreaterThan(0);
  });

  it("item 3: a prompt over the context size, refused by an SSE `error:` line before any text: the server's message, exit 4", async () => {
    const result = await svc(['chat', '--no-save', OVER_LONG_PROMPT], sandbox);
    expect(result.exitCode, result.stderr).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('the request exceeds the available context size');
    expect(result.stderr).not.toContain('without choices');
  });

  it('item 3: the same prompt with --no-stream is an HTTP 400 with the same message, exit 4', async () => {
    const result = await svc(['chat', '--no-save', '--no-stream', OVER_LONG_PROMPT], sandbox);
    expect(result.exitCode, result.stderr).toBe(4);
    expect(result.stderr).toContain('the request exceeds the available context size');
  });

  it('a wrong key: HTTP 401, exit 3, the key not shown', async () => {
    const result = await svc(['chat', '--no-save', 'hi'], { ...sandbox, env: { ...sandbox.env, SVC_API_KEY: 'sk-wrong-key' } });
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('Invalid API Key');
    expect(result.stderr).not.toContain('sk-wrong-key');
  });

  it('item 2: a batch of 8 at --concurrency 4 on the one-slot server finishes with every answer, one line each', async () => {
    const ids = writeRequests('eight.jsonl', 8);
    const result = await svc(['batch', 'eight.jsonl', '--concurrency', '4'], sandbox, { timeout: 60_000 });
    expect(result.exitCode, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((line) => line.custom_id).sort()).toEqual(ids);
    for (const line of lines) {
      expect(line.error).toBeNull();
      expect(line.response.status_code).toBe(200);
      expect(line.response.body.choices[0].message.content.length).toBeGreaterThan(0);
    }
    expect(result.stderr).toContain('8 succeeded, 0 failed');
  }, 90_000);

  it('item 1: `svc batch … | head -1` stops quietly with the SIGPIPE status once the pipe is gone', async () => {
    // More requests than head lets through, so svc has lines left to write after head is gone.
    writeRequests('many.jsonl', 24);
    const piped = await svcIntoHeadOne('batch many.jsonl --concurrency 4');
    expect(JSON.parse(piped.firstLine).response.status_code).toBe(200);
    expect(piped.status).toBe(141);
    expect(piped.stderr).toBe('');
  }, 90_000);

  it('item 1: `svc batch --prompts … | head -1` likewise', async () => {
    writeFileSync(join(sandbox.home, 'prompts.txt'), Array.from({ length: 24 }, (_, n) => `prompt ${n}`).join('\n'));
    const piped = await svcIntoHeadOne('batch --prompts prompts.txt --max-tokens 4 --concurrency 1');
    expect(JSON.parse(piped.firstLine).custom_id).toBe('line-1');
    expect(piped.status).toBe(141);
    expect(piped.stderr).toBe('');
  }, 90_000);

  it('the context window: read from /props (n_ctx 512, not the model list\'s n_ctx_train), warned about before a send that outgrows it, which is still sent; the refusal after is exit 4 with the hint', async () => {
    const turns: Array<{ exitCode: number | undefined; warned: boolean; stderr: string }> = [];
    for (let turn = 0; turn < 8; turn += 1) {
      const result = await svc(['chat', '--session', 'growing', '--max-tokens', '16', GROWING_MESSAGE], sandbox);
      turns.push({ exitCode: result.exitCode, warned: result.stderr.includes(WINDOW_WARNING), stderr: result.stderr });
      if (result.exitCode !== 0) break;
    }
    const shown = JSON.stringify(turns.map(({ exitCode, warned }) => ({ exitCode, warned })));
    // The first turn has no history: nothing is asked or said.
    expect(turns[0]!.warned, shown).toBe(false);
    const warnedButSent = turns.findIndex((turn) => turn.warned && turn.exitCode === 0);
    expect(warnedButSent, shown).toBeGreaterThan(0);
    const refused = turns.at(-1)!;
    expect(refused.exitCode, refused.stderr).toBe(4);
    expect(refused.warned, refused.stderr).toBe(true);
    expect(refused.stderr).toContain('context size');
    expect(refused.stderr).toContain(CONTEXT_EXCEEDED_HINT);
    // Nothing of the refused turn was kept: the conversation ends with the turn before.
    const shownConversation = await svc(['sessions', 'show', 'growing', '--json'], sandbox);
    const messages = JSON.parse(shownConversation.stdout) as Array<{ role: string }>;
    expect(messages.filter((message) => message.role === 'user')).toHaveLength(turns.length - 1);
  }, 120_000);

  it('a prompt over the window with no history: exit 4 with the hint, no warning (nothing asked before a first message)', async () => {
    const result = await svc(['chat', '--no-save', '--no-stream', OVER_LONG_PROMPT], sandbox);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain(CONTEXT_EXCEEDED_HINT);
    expect(result.stderr).not.toContain('sent anyway');
  });
});
