/**
 * The context window in use (README "Long conversations"): the `contextWindow` settings, the
 * server's window asked only when a conversation with earlier turns is about to be sent (never
 * for a plain question), the one line before a send that will not fit (sent anyway), /usage's
 * last request against the window, and the server's refusal said with what to do, in the
 * session as in a one-shot answer. Against the emulator with a window (`--context`), and a
 * scripted server where the requests themselves are the point.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '@svc/emulator';
import { CONTEXT_EXCEEDED_HINT } from '../../src/api/context-exceeded.js';
import { ContextWindows } from '../../src/chat/server-window.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { runScriptedSession } from '../helpers/scripted-session.js';
import { chunk, reply, useScriptedServer } from '../helpers/scripted-server.js';
import { sessionPlan } from '../helpers/session-plan.js';

const KEY = 'sk-window-0123456789';
const words = (count: number): string => Array.from({ length: count }, (_, n) => `word${n}`).join(' ');

describe('the settings', () => {
  let sandbox: Sandbox;
  beforeEach(() => {
    sandbox?.cleanup();
    sandbox = makeSandbox({ SVC_BASE_URL: 'http://127.0.0.1:9', SVC_API_KEY: KEY });
  });
  afterAll(() => sandbox?.cleanup());

  it('contextWindow.MODEL is stored per model id (dots and all), listed, got and unset; contextWindow for every model', async () => {
    expect((await runSvc(['config', 'set', 'contextWindow.gpt-4.1', '1047576'], sandbox)).exitCode).toBe(0);
    expect((await runSvc(['config', 'set', 'contextWindow.tiny', '512'], sandbox)).exitCode).toBe(0);
    expect((await runSvc(['config', 'set', 'contextWindow', '8192'], sandbox)).exitCode).toBe(0);
    expect((await runSvc(['config', 'get', 'contextWindow.tiny'], sandbox)).stdout).toBe('512\n');
    expect((await runSvc(['config', 'get', 'contextWindow'], sandbox)).stdout).toBe('8192\n');
    const stored = JSON.parse(readFileSync(join(sandbox.home, 'config', 'svc', 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(stored).toMatchObject({ contextWindow: 8192, contextWindows: { 'gpt-4.1': 1047576, tiny: 512 } });
    const list = await runSvc(['config', 'list'], sandbox);
    expect(list.stdout).toContain('contextWindow\t8192\tstored\n');
    expect(list.stdout).toContain('contextWindow.gpt-4.1\t1047576\tstored\ncontextWindow.tiny\t512\tstored\n');
    expect((await runSvc(['config', 'unset', 'contextWindow.tiny'], sandbox)).exitCode).toBe(0);
    expect((await runSvc(['config', 'get', 'contextWindow.tiny'], sandbox)).exitCode).toBe(1);
    expect((await runSvc(['config', 'get', 'contextWindow.gpt-4.1'], sandbox)).stdout).toBe('1047576\n');
    // The environment beats the stored value for every model.
    expect((await runSvc(['config', 'get', 'contextWindow'], sandbox, { env: { SVC_CONTEXT_WINDOW: '4096' } })).stdout).toBe('4096\n');
  });

  it('a window that is not a whole number of tokens is exit 2, nothing stored', async () => {
    for (const [key, value] of [['contextWindow.tiny', 'big'], ['contextWindow.tiny', '0'], ['contextWindow', '-1'], ['contextWindow', '4k']]) {
      const result = await runSvc(['config', 'set', key!, value!], sandbox);
      expect(result.exitCode, `${key} ${value}`).toBe(2);
      expect(result.stderr).toContain(`${key} must be a whole number from 1 to 100000000`);
    }
    expect((await runSvc(['config', 'get', '--stored', 'contextWindow'], sandbox)).exitCode).toBe(1);
  });

  it('autoCompact: off by default, a percentage from 1 to 100 (a % allowed), or off again', async () => {
    expect((await runSvc(['config', 'get', 'autoCompact'], sandbox)).stdout).toBe('off\n');
    expect((await runSvc(['config', 'set', 'autoCompact', '80%'], sandbox)).exitCode).toBe(0);
    expect((await runSvc(['config', 'get', 'autoCompact'], sandbox)).stdout).toBe('80\n');
    expect((await runSvc(['config', 'get', 'autoCompact'], sandbox, { env: { SVC_AUTO_COMPACT: 'OFF' } })).stdout).toBe('off\n');
    for (const bad of ['0', '101', 'on', '50.5']) {
      const result = await runSvc(['config', 'set', 'autoCompact', bad], sandbox);
      expect(result.exitCode, bad).toBe(2);
      expect(result.stderr).toContain('autoCompact must be off, or a percentage of the context window from 1 to 100');
    }
  });
});

describe('against the emulator with a 400-token window', () => {
  let emulator: RunningEmulator;
  let sandbox: Sandbox;
  beforeEach(async () => {
    await emulator?.close();
    sandbox?.cleanup();
    emulator = await startEmulator({ apiKeys: [KEY], contextLength: 400 });
    sandbox = makeSandbox({ SVC_BASE_URL: emulator.baseUrl, SVC_API_KEY: KEY, SVC_MODEL: 'svc-pro' });
  });
  afterAll(async () => {
    await emulator?.close();
    sandbox?.cleanup();
  });

  it('--continue: a conversation that outgrows the window is warned about once before it is sent, then the server refuses it: exit 4 with the hint', async () => {
    const first = await runSvc(['chat', '--max-tokens', '20', `remember these: ${words(120)}`], sandbox);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stderr).not.toContain('context window');
    // Long words: one token each to the emulator, five by svc's estimate, so the estimate says it
    // will not fit while the server still takes it (the server decides).
    const second = await runSvc(['chat', '--continue', '--max-tokens', '20', `and these: ${'abcdefghijklmnopqrst '.repeat(30)}`], sandbox);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.stdout.length).toBeGreaterThan(0);
    const warnings = second.stderr.split('\n').filter((line) => line.startsWith('svc: warning: this conversation'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^svc: warning: this conversation is about \d+ tokens, with 20 kept for the reply: more than svc-pro's context window of 400 \(as the server says\); sent anyway: svc chat --continue --compact summarises earlier turns; if the window is larger, svc config set contextWindow\.svc-pro N$/);
    const third = await runSvc(['chat', '--continue', '--max-tokens', '20', `and one more thing: ${words(60)}`], sandbox);
    expect(third.exitCode).toBe(4);
    expect(third.stderr).toContain("svc: error: This model's maximum context length is 400 tokens.");
    expect(third.stderr).toContain(`  ${CONTEXT_EXCEEDED_HINT}\n`);
    // A context refusal names the model in its words; it is not said as a refused model.
    expect(third.stderr).not.toContain('choose one with -m');
  });

  it('a setting beats what the server says, and contextWindow.MODEL beats contextWindow', async () => {
    expect((await runSvc(['chat', `remember: ${words(150)}`, '--max-tokens', '20'], sandbox)).exitCode).toBe(0);
    expect((await runSvc(['config', 'set', 'contextWindow.svc-pro', '100000'], sandbox)).exitCode).toBe(0);
    const asSet = await runSvc(['chat', '--continue', '--max-tokens', '5', 'a short one'], sandbox, { env: { SVC_CONTEXT_WINDOW: '50' } });
    // The per-model setting still wins over the one for every model.
    expect(asSet.stderr).not.toContain('context window');
    expect((await runSvc(['config', 'unset', 'contextWindow.svc-pro'], sandbox)).exitCode).toBe(0);
    const small = await runSvc(['chat', '--continue', '--max-tokens', '5', 'a short one'], sandbox, { env: { SVC_CONTEXT_WINDOW: '50' } });
    expect(small.stderr).toContain("more than svc-pro's context window of 50 (as contextWindow says)");
  });

  it('svc batch: a request too long for the window is that line\'s failure, recorded with the service\'s answer (exit 1, as any failed line)', async () => {
    writeFileSync(join(sandbox.home, 'prompts.txt'), `short\n${words(300)}\n`);
    const result = await runSvc(['batch', '--prompts', 'prompts.txt', '-o', 'out.jsonl', '--max-tokens', '5'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("1 failed (first: line-2: This model's maximum context length is 400 tokens.");
    const lines = readFileSync(join(sandbox.home, 'out.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { custom_id: string; response: { status_code: number; body: { error?: { code: string } } } });
    expect(lines.find((line) => line.custom_id === 'line-2')!.response).toMatchObject({ status_code: 400, body: { error: { code: 'context_length_exceeded' } } });
  });

  /** `count` turns of some 60 tokens each (a message of 20 words and a 20-token reply), saved as a one-shot conversation. */
  async function turns(count: number): Promise<void> {
    for (let n = 1; n <= count; n++) {
      const turn = await runSvc(['chat', ...(n === 1 ? [] : ['--continue']), '--max-tokens', '20', `turn ${n}: ${words(20)}`], sandbox);
      expect(turn.exitCode, turn.stderr).toBe(0);
    }
  }

  it('autoCompact, --continue: a send that would fill more than its share of the window is compacted first, then sent and answered', async () => {
    await turns(5);
    const next = await runSvc(['chat', '--continue', '--max-tokens', '20', 'and now?'], sandbox, { env: { SVC_AUTO_COMPACT: '50' } });
    expect(next.exitCode, next.stderr).toBe(0);
    expect(next.stderr).toMatch(/svc: the next request would be about \d+ of 400 tokens \(\d+%\), over autoCompact's 50%: compacting the conversation first/);
    expect(next.stderr).toMatch(/compacted 3 turns into a summary/);
    expect(next.stderr).not.toContain('svc: warning: this conversation');
    expect(next.stdout.length).toBeGreaterThan(0);
    const shown = await runSvc(['sessions', 'show'], sandbox);
    expect(shown.stdout).toMatch(/^\[summary of turns 1–3, sent in their place; --all shows them\]\n/);
    expect(shown.stdout).toContain('and now?');
    // Under the share, nothing happens: one summary, not one per send.
    const calm = await runSvc(['chat', '--continue', '--max-tokens', '20', 'fine'], sandbox, { env: { SVC_AUTO_COMPACT: '90' } });
    expect(calm.stderr).not.toContain('compacting');
  });

  it('autoCompact does not compact when the turns it would keep are over the share alone: a summary would change nothing', async () => {
    await turns(3);
    const next = await runSvc(['chat', '--continue', '--max-tokens', '20', 'and now?'], sandbox, { env: { SVC_AUTO_COMPACT: '20' } });
    expect(next.exitCode, next.stderr).toBe(0);
    expect(next.stderr).not.toContain('compact');
    expect((await runSvc(['sessions', 'show', '--all'], sandbox)).stdout).not.toContain('[compaction');
  });

  it('autoCompact in the session: compacted before the send that would fill the share, the summary then sent in the system message', async () => {
    const plan = { ...sessionPlan(), fields: { max_tokens: 20 } };
    const lines = [1, 2, 3, 4, 5, 6, 7].map((n) => `turn ${n}: ${words(20)}`);
    const { stderr } = await runScriptedSession(sandbox, [...lines, '/history'], { plan, start: { autoCompact: 60 } });
    expect(stderr).toMatch(/\(the next request would be about \d+ of 400 tokens \(\d+%\), over autoCompact's 60%: compacting the conversation first\)/);
    expect(stderr).toMatch(/\(compacted \d turns? into a summary/);
    expect(stderr).toMatch(/\[summary of turns? 1(–\d)?, sent in (its|their) place\]/);
    expect(stderr).not.toContain("This model's maximum context length");
  });

  it('the warning in the session names a model from the conversation file without its escape sequences', async () => {
    const evil = 'svc-pro\u001b]0;PWNED\u0007\u001b[41mX';
    const { stderr } = await runScriptedSession(sandbox, ['a question long enough to be over twenty tokens of window, surely'], {
      prepare: (session) => {
        session.setModel(evil);
        session.addTurn({ user: 'hello', assistant: 'hi' });
      },
      start: { windows: new ContextWindows({ all: 20 }, async () => undefined) },
    });
    expect(stderr).toContain('more than svc-pro');
    expect(stderr).not.toContain('\u001b');
    expect(stderr).not.toContain('\u0007');
  });

  it('the session: /usage shows the last request against the window; the warning comes before the send that outgrows it, and the refusal after says what to do', async () => {
    const plan = { ...sessionPlan(), fields: { max_tokens: 20 } };
    const { stderr } = await runScriptedSession(sandbox, [`keep these: ${words(100)}`, '/usage', `and these: ${words(100)}`, 'and more', 'more still'], { plan });
    expect(stderr).toMatch(/last request: {7}\d+ of 400 tokens of the context window \(\d+%, as the server says\)\n/);
    expect(stderr).toMatch(/\(this conversation is about \d+ tokens, with 20 kept for the reply: more than svc-pro's context window of 400 \(as the server says\); sent anyway: \/compact summarises earlier turns;/);
    expect(stderr).toContain("This model's maximum context length is 400 tokens.");
    expect(stderr).toContain(CONTEXT_EXCEEDED_HINT);
  });
});

describe('when svc asks the server', () => {
  const scripted = useScriptedServer();
  let sandbox: Sandbox;
  const streamed = (text: string, prompt: number, completion: number) =>
    reply.sse([chunk(text, 'stop'), `data: ${JSON.stringify({ id: 'u', object: 'chat.completion.chunk', created: 1, model: 'tiny', choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } })}\n\n`, 'data: [DONE]\n\n']);
  beforeEach(() => {
    sandbox?.cleanup();
    sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: KEY, SVC_MODEL: 'tiny', SVC_MAX_RETRIES: '0' });
  });
  afterAll(() => sandbox?.cleanup());

  it('never for a plain question: one request, the chat', async () => {
    scripted.server.script(streamed('hello', 10, 5));
    const result = await runSvc(['chat', 'hi'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(scripted.server.requests.map((request) => `${request.method} ${request.url}`)).toEqual(['POST /v1/chat/completions']);
    expect(scripted.server.propsAsks).toEqual([]);
    expect(scripted.server.modelListAsks).toEqual([]);
  });

  it("--continue asks /props once, then sends; the last reply's counts make the estimate", async () => {
    scripted.server.script(streamed('first', 300, 100));
    expect((await runSvc(['chat', 'hi'], sandbox)).exitCode).toBe(0);
    // 300 + 100 counted, and the new message (4 + 200 / 4): over 512 with the 64 kept for the reply.
    scripted.server.script(reply.props(reply.json(200, { default_generation_settings: { n_ctx: 512 } })), streamed('second', 420, 5));
    const result = await runSvc(['chat', '--continue', 'x'.repeat(200)], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain("svc: warning: this conversation is about 454 tokens, with 64 kept for the reply: more than tiny's context window of 512 (as the server says)");
    expect(scripted.server.requests.map((request) => `${request.method} ${request.url}`)).toEqual(['POST /v1/chat/completions', 'GET /props?model=tiny', 'POST /v1/chat/completions']);
    expect(scripted.server.requests[1]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('the session asks once for the whole session, only from its second send, and a server that says nothing is no error', async () => {
    scripted.server.script(streamed('one', 10, 5), streamed('two', 20, 5), streamed('three', 30, 5));
    const { stderr } = await runScriptedSession(sandbox, ['a', 'b', 'c', '/usage']);
    expect(scripted.server.requests.map((request) => request.method)).toEqual(['POST', 'POST', 'POST']);
    expect(scripted.server.propsAsks).toHaveLength(1);
    expect(scripted.server.modelListAsks).toHaveLength(1);
    expect(stderr).not.toContain('context window');
    expect(stderr).not.toContain('error');
  });

  it('a window given to the session asks nothing; /usage puts the last request against it', async () => {
    scripted.server.script(streamed('one', 3120, 5));
    const windows = new ContextWindows({ all: 4096 }, async () => {
      throw new Error('not asked');
    });
    const { stderr } = await runScriptedSession(sandbox, ['a', '/usage'], { start: { windows } });
    expect(stderr).toContain('last request:       3120 of 4096 tokens of the context window (76%)\n');
    expect(scripted.server.propsAsks).toEqual([]);
  });
});
