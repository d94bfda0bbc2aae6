/**
 * svc batch's closing line tells the truth (issue 21, item 9): its counts add up to the input, the
 * first failure is named, empty replies are counted; and one run writes a results file at a time
 * (item 8): a second is refused at once (exit 2, nothing sent), a lock left by a process that is
 * gone never blocks.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { reply, useScriptedServer, type Handler } from '../helpers/scripted-server.js';

const scripted = useScriptedServer();
let sandbox: Sandbox;
let sleeper: ChildProcess | undefined;
const home = (...parts: string[]) => join(sandbox.home, ...parts);

const completion = (content: string | null, finish = 'stop') => ({ id: 'c', object: 'chat.completion', created: 1, model: 'svc-pro', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finish }], usage: { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 } });
const chatLine = (id: string) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { messages: [{ role: 'user', content: id }] } });
const idOf = (body: string) => (JSON.parse(body) as { messages: Array<{ content: string }> }).messages.at(-1)!.content;

beforeAll(() => {
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'summary-key-0123', SVC_MAX_RETRIES: '0' });
});
afterAll(() => sandbox.cleanup());
afterEach(() => {
  sleeper?.kill();
  sleeper = undefined;
});

describe('the closing line', () => {
  it('names the first failure, counts empty replies, and adds up to the input', async () => {
    writeFileSync(home('mixed.jsonl'), ['ok', 'broken', 'empty'].map(chatLine).join('\n'));
    const byId: Handler = (req, res, body) => {
      const id = idOf(body);
      if (id === 'broken') return reply.json(500, { error: { message: 'the slot crashed' } })(req, res, body);
      if (id === 'empty') return reply.json(200, completion(null, 'length'))(req, res, body);
      return reply.json(200, completion('fine'))(req, res, body);
    };
    scripted.server.script(byId, byId, byId);
    const result = await runSvc(['batch', 'mixed.jsonl', '--concurrency', '1'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^3 requests: 2 succeeded, 1 failed \(first: broken: .*the slot crashed.* \(HTTP 500\)\), 1 with an empty reply \(first: the reply was empty: the token limit was reached first \(finish_reason: length\); raise max_tokens\), 1 cut at the token limit \(first: empty; raise max_tokens\), \d+\.\d s, 10 tokens \(4 prompt \+ 6 completion\)\n$/);
  });

  it('counts the replies cut at the token limit (finish_reason: length), naming the first, and --json has them', async () => {
    writeFileSync(home('long.jsonl'), ['whole', 'cut-1', 'cut-2'].map(chatLine).join('\n'));
    const byId: Handler = (req, res, body) => reply.json(200, completion(`text of ${idOf(body)}`, idOf(body).startsWith('cut') ? 'length' : 'stop'))(req, res, body);
    scripted.server.script(byId, byId, byId);
    const result = await runSvc(['batch', 'long.jsonl', '--concurrency', '1', '-o', 'long.out.jsonl', '--json'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^3 requests: 3 succeeded, 0 failed, 2 cut at the token limit \(first: cut-1; raise max_tokens\), \d+\.\d s, 15 tokens/);
    expect(JSON.parse(result.stdout)).toMatchObject({ succeeded: 3, empty_replies: 0, cut_at_token_limit: 2 });
  });

  it('a rerun counts what an earlier run did as already done', async () => {
    writeFileSync(home('again.jsonl'), ['a', 'b', 'c'].map(chatLine).join('\n'));
    scripted.server.script(reply.json(200, completion('x')), reply.json(200, completion('x')), reply.json(200, completion('x')));
    expect((await runSvc(['batch', 'again.jsonl', '-o', 'again.out.jsonl'], sandbox)).exitCode).toBe(0);
    writeFileSync(home('again.jsonl'), ['a', 'b', 'c', 'd'].map(chatLine).join('\n'));
    scripted.server.script(reply.json(200, completion('x')));
    const result = await runSvc(['batch', 'again.jsonl', '-o', 'again.out.jsonl'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('4 requests: 1 succeeded, 0 failed, 3 already done, ');
  });
});

describe('one run per results file', () => {
  it('a lock held by a live svc batch: exit 2 at once, naming it, nothing sent', async () => {
    writeFileSync(home('locked.jsonl'), chatLine('a'));
    sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    writeFileSync(home('locked.out.jsonl.lock'), JSON.stringify({ pid: sleeper.pid, host: hostname(), since: '2026-11-24T10:00:00.000Z' }));
    scripted.server.script();
    const result = await runSvc(['batch', 'locked.jsonl', '-o', 'locked.out.jsonl'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`-o locked.out.jsonl is being written by another svc batch (process ${sleeper.pid} on ${hostname()}`);
    expect(result.stderr).toContain('nothing was sent');
    expect(scripted.server.requests).toHaveLength(0);
    expect(existsSync(home('locked.out.jsonl'))).toBe(false);
  });

  it('a lock left by a process that is gone is taken over, and released at the end', async () => {
    writeFileSync(home('stale.jsonl'), chatLine('a'));
    const gone = spawn('true', { stdio: 'ignore' });
    await new Promise((resolve) => gone.on('exit', resolve));
    writeFileSync(home('stale.out.jsonl.lock'), JSON.stringify({ pid: gone.pid, host: hostname(), since: '2026-11-24T10:00:00.000Z' }));
    scripted.server.script(reply.json(200, completion('x')));
    const result = await runSvc(['batch', 'stale.jsonl', '-o', 'stale.out.jsonl'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(existsSync(home('stale.out.jsonl.lock'))).toBe(false);
  });
});
