/**
 * Usage and cost (issue 24, item 1): prices set with `svc config set prices.MODEL IN/OUT` make
 * every usage line and total show a cost, nothing guessed without one; the batch closing line
 * and `--json` summary split the tokens; streams ask for usage unless the streamUsage setting
 * is off, and a server that refuses `stream_options` is asked again without it, once per run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { costOf, costOfSpent, formatCost, parsePrice } from '../../src/settings/prices.js';
import { runSvc } from '../helpers/in-process.js';
import { runScriptedSession } from '../helpers/scripted-session.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer } from '../helpers/scripted-server.js';

const scripted = useScriptedServer();
let sandbox: Sandbox;
const usage = (prompt: number, completion: number) => ({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion });
const usageChunk = (prompt: number, completion: number) => `data: ${JSON.stringify({ id: 'u', object: 'chat.completion.chunk', created: 1, model: 'svc-pro', choices: [], usage: usage(prompt, completion) })}\n\n`;
const streamed = (text: string, prompt = 1000, completion = 2000) => reply.sse([chunk(text, 'stop'), usageChunk(prompt, completion), 'data: [DONE]\n\n']);
const completion = (model: string, prompt: number, done: number) => ({ id: 'c', object: 'chat.completion', created: 1, model, choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: usage(prompt, done) });
const sentBodies = () => scripted.server.requests.map((request) => JSON.parse(request.body) as Record<string, unknown>);

beforeEach(() => {
  sandbox?.cleanup();
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'usage-key-0123456789', SVC_MAX_RETRIES: '0' });
});
afterAll(() => sandbox?.cleanup());

describe('prices', () => {
  it('reads IN/OUT in dollars per million tokens, a $ allowed; anything else is refused', () => {
    expect(parsePrice('2.5/10', 'p')).toEqual({ input: 2.5, output: 10 });
    expect(parsePrice(' $0.15 / $.6 ', 'p')).toEqual({ input: 0.15, output: 0.6 });
    for (const bad of ['2.5', '-1/2', 'a/b', '1/2/3', '']) expect(() => parsePrice(bad, 'p')).toThrow('must be "IN/OUT"');
  });

  it('costs prompt and completion tokens at their own price; tiny costs are not shown as $0.0000', () => {
    expect(costOf(usage(1_000_000, 500_000), { input: 2, output: 8 })).toBe(6);
    expect(formatCost(0.01234)).toBe('$0.0123');
    expect(formatCost(0.00001)).toBe('<$0.0001');
    expect(formatCost(0)).toBe('$0.0000');
  });

  it('a total over several models has a cost only when every model that used tokens has a price', () => {
    const prices = new Map([['a', { input: 1, output: 1 }]]);
    expect(costOfSpent({ a: usage(500_000, 500_000), b: usage(0, 0) }, prices)).toBe(1);
    expect(costOfSpent({ a: usage(1, 1), b: usage(1, 1) }, prices)).toBeUndefined();
  });

  it('no cost where nothing was priced: no tokens counted (a service without usage), or nothing spent', () => {
    const prices = new Map([['a', { input: 1, output: 1 }]]);
    expect(costOfSpent({ b: usage(0, 0) }, prices)).toBeUndefined();
    expect(costOfSpent({}, prices)).toBeUndefined();
    expect(costOfSpent({ b: usage(0, 0) }, new Map())).toBeUndefined();
    // A priced model that spent nothing did cost nothing.
    expect(costOfSpent({ a: usage(0, 0) }, prices)).toBe(0);
  });
});

describe('svc config set prices.MODEL', () => {
  it('stores a price per model id (dots and all), lists, gets and unsets it; a bad one is exit 2', async () => {
    expect((await runSvc(['config', 'set', 'prices.gpt-4.1', '2/8'], sandbox)).exitCode).toBe(0);
    expect((await runSvc(['config', 'set', 'prices.svc-pro', '$0.50/$1.50'], sandbox)).exitCode).toBe(0);
    expect((await runSvc(['config', 'get', 'prices.gpt-4.1'], sandbox)).stdout).toBe('2/8\n');
    const list = await runSvc(['config', 'list'], sandbox);
    expect(list.stdout).toContain('prices.gpt-4.1\t2/8\tstored\nprices.svc-pro\t0.5/1.5\tstored\n');
    const stored = JSON.parse(readFileSync(join(sandbox.home, 'config', 'svc', 'config.json'), 'utf8')) as { prices: unknown };
    expect(stored.prices).toEqual({ 'gpt-4.1': '2/8', 'svc-pro': '0.5/1.5' });
    const bad = await runSvc(['config', 'set', 'prices.svc-pro', 'cheap'], sandbox);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('prices.svc-pro must be "IN/OUT"');
    expect((await runSvc(['config', 'unset', 'prices.gpt-4.1'], sandbox)).exitCode).toBe(0);
    expect((await runSvc(['config', 'get', 'prices.gpt-4.1'], sandbox)).exitCode).toBe(1);
  });

  it('a damaged entry in config.json is named once and the others still priced', async () => {
    await runSvc(['config', 'set', 'timeout', '30'], sandbox);
    const path = join(sandbox.home, 'config', 'svc', 'config.json');
    writeFileSync(path, JSON.stringify({ prices: { 'svc-pro': '1/2', broken: 'lots' } }));
    scripted.server.script(streamed('hi'));
    const result = await runSvc(['chat', '--no-save', '--usage', 'q'], sandbox);
    expect(result.stderr).toContain('prices.broken in');
    expect(result.stderr).toContain('tokens: 1000 prompt + 2000 completion = 3000 total, $0.0050');
  });
});

describe('usage lines with a cost', () => {
  it('svc chat --usage adds the cost when the model has a price, and none without one', async () => {
    scripted.server.script(streamed('hi'), streamed('hi'));
    const unpriced = await runSvc(['chat', '--no-save', '--usage', 'q'], sandbox);
    expect(unpriced.stderr).toContain('tokens: 1000 prompt + 2000 completion = 3000 total\n');
    await runSvc(['config', 'set', 'prices.svc-pro', '3/15'], sandbox);
    const priced = await runSvc(['chat', '--no-save', '--usage', 'q'], sandbox);
    expect(priced.stderr).toContain('tokens: 1000 prompt + 2000 completion = 3000 total, $0.0330\n');
  });

  it('/usage in the session gives this session and the whole conversation, with their cost', async () => {
    await runSvc(['config', 'set', 'prices.svc-pro', '3/15'], sandbox);
    scripted.server.script(streamed('one', 100, 200), streamed('two', 300, 400));
    const { stderr } = await runScriptedSession(sandbox, ['a', 'b', '/usage'], { start: { prices: new Map([['svc-pro', { input: 3, output: 15 }]]) } });
    // 400 prompt × $3/M + 600 completion × $15/M = $0.0102
    expect(stderr).toContain('this session:       tokens: 400 prompt + 600 completion = 1000 total, $0.0102\n');
    expect(stderr).toContain('whole conversation: tokens: 400 prompt + 600 completion = 1000 total, $0.0102, over 2 turns\n');
  });
});

describe('svc batch totals', () => {
  const line = (id: string, model: string) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model, messages: [{ role: 'user', content: id }] } });

  it('the closing line splits the tokens and gives the cost; --json prints the summary on stdout', async () => {
    await runSvc(['config', 'set', 'prices.svc-pro', '1/2'], sandbox);
    writeFileSync(join(sandbox.home, 'in.jsonl'), `${line('a', 'svc-pro')}\n${line('b', 'svc-pro')}\n`);
    scripted.server.script(reply.json(200, completion('svc-pro', 1000, 500)), reply.json(200, completion('svc-pro', 3000, 1500)));
    const result = await runSvc(['batch', 'in.jsonl', '-o', 'out.jsonl', '--concurrency', '1', '--json'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/2 requests: 2 succeeded, 0 failed, [\d.]+ s, 6,000 tokens \(4,000 prompt \+ 2,000 completion\), \$0\.0080\n/);
    const summary = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ requests: 2, succeeded: 2, failed: 0, usage: { prompt_tokens: 4000, completion_tokens: 2000, total_tokens: 6000 }, cost_usd: 0.008 });
  });

  it('no cost when a model used has no price; --json without -o is exit 2', async () => {
    await runSvc(['config', 'set', 'prices.svc-pro', '1/2'], sandbox);
    writeFileSync(join(sandbox.home, 'in.jsonl'), `${line('a', 'svc-pro')}\n${line('b', 'other')}\n`);
    scripted.server.script(reply.json(200, completion('svc-pro', 10, 5)), reply.json(200, completion('other', 10, 5)));
    const result = await runSvc(['batch', 'in.jsonl', '-o', 'out.jsonl', '--concurrency', '1', '--json'], sandbox);
    expect(result.stderr).toMatch(/30 tokens \(20 prompt \+ 10 completion\)\n/);
    expect((JSON.parse(result.stdout) as { cost_usd: unknown }).cost_usd).toBeNull();
    const noOutput = await runSvc(['batch', 'in.jsonl', '--json'], sandbox);
    expect(noOutput.exitCode).toBe(2);
    expect(noOutput.stderr).toContain('give -o FILE');
  });
});

describe('streamUsage', () => {
  it('a server that refuses stream_options is asked again without it, once, and not again in the session', async () => {
    const refusal = reply.json(400, { error: { message: "Unrecognized request argument supplied: stream_options", type: 'invalid_request_error', param: null, code: null } });
    scripted.server.script(refusal, streamed('first'), streamed('second'));
    const { StreamUsageAsk } = await import('../../src/commands/chat/reply.js');
    const { stderr } = await runScriptedSession(sandbox, ['a', 'b'], { start: { streamUsage: new StreamUsageAsk(true) } });
    expect(sentBodies().map((body) => body.stream_options)).toEqual([{ include_usage: true }, undefined, undefined]);
    expect(stderr.match(/refused stream_options/g)).toHaveLength(1);
  });

  it('one-shot: the refusal costs one round trip and the reply comes; streamUsage off never asks', async () => {
    const refusal = reply.json(400, { error: { message: 'stream_options: Extra inputs are not permitted', type: 'invalid_request_error' } });
    scripted.server.script(refusal, streamed('answer'));
    const refused = await runSvc(['chat', '--no-save', 'q'], sandbox);
    expect(refused.exitCode, refused.stderr).toBe(0);
    expect(refused.stdout).toBe('answer\n');
    await runSvc(['config', 'set', 'streamUsage', 'off'], sandbox);
    scripted.server.script(streamed('again'));
    expect((await runSvc(['chat', '--no-save', 'q'], sandbox)).exitCode).toBe(0);
    expect(sentBodies().at(-1)!.stream_options).toBeUndefined();
    expect(sentBodies().at(-1)!.stream).toBe(true);
  });

  it('another 400 is not taken for a refusal: it is reported as it is (exit 4), sent once', async () => {
    scripted.server.script(reply.json(400, { error: { message: 'messages: too long', type: 'invalid_request_error' } }));
    const result = await runSvc(['chat', '--no-save', 'q'], sandbox);
    expect(result.exitCode).toBe(4);
    expect(scripted.server.requests).toHaveLength(1);
  });
});

describe('usage of saved conversations', () => {
  async function twoTurns(): Promise<void> {
    scripted.server.script(streamed('first', 100, 200), streamed('second', 300, 400));
    expect((await runSvc(['chat', '--session', 'costly', 'one'], sandbox)).exitCode).toBe(0);
    expect((await runSvc(['chat', '--session', 'costly', 'two'], sandbox)).exitCode).toBe(0);
  }

  it('sessions show --usage: each reply its tokens, then the total and its cost', async () => {
    await twoTurns();
    await runSvc(['config', 'set', 'prices.svc-pro', '3/15'], sandbox);
    const shown = await runSvc(['sessions', 'show', 'costly', '--usage'], sandbox);
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('[assistant · 100 prompt + 200 completion tokens]\nfirst');
    expect(shown.stdout).toContain('[assistant · 300 prompt + 400 completion tokens]\nsecond');
    expect(shown.stdout.trimEnd().split('\n').at(-1)).toBe('tokens: 400 prompt + 600 completion = 1000 total, $0.0102, over 2 turns (undone and retried replies included)');
    expect((await runSvc(['sessions', 'show', 'costly', '--usage', '--json'], sandbox)).exitCode).toBe(2);
  });

  it('sessions list --usage: a tokens column, and a cost column once prices are set', async () => {
    await twoTurns();
    const plain = await runSvc(['sessions', 'list', '--usage'], sandbox);
    expect(plain.stdout.split('\n')[0]).toMatch(/^costly\t\S+ \S+\t2\t1000\tone$/);
    await runSvc(['config', 'set', 'prices.svc-pro', '3/15'], sandbox);
    const priced = await runSvc(['sessions', 'list', '--usage'], sandbox);
    expect(priced.stdout.split('\n')[0]).toMatch(/^costly\t\S+ \S+\t2\t1000\t\$0\.0102\tone$/);
    const json = JSON.parse((await runSvc(['sessions', 'list', '--usage', '--json'], sandbox)).stdout) as Array<Record<string, unknown>>;
    expect(json[0]).toMatchObject({ name: 'costly', usage: { prompt_tokens: 400, completion_tokens: 600, total_tokens: 1000 }, cost_usd: 0.0102 });
  });
});
