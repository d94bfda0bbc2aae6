/**
 * `svc batch` as a real process: SIGINT mid-run keeps every finished line and exits 130, and a
 * rerun finishes the job without asking anything twice; requests and prompts read from stdin.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '@svc/emulator';
import { hasStackTrace, makeSandbox, svc, SVC_BIN, type Sandbox } from '../helpers/run-svc.js';
import { reply, useScriptedServer, type Handler } from '../helpers/scripted-server.js';

// Each run scripts one answer per request it must send; an unused one or an extra request fails the test.
const scripted = useScriptedServer();
const server = () => scripted.server;
let emulator: RunningEmulator;
let sandbox: Sandbox;
const home = (...parts: string[]) => join(sandbox.home, ...parts);
const completion = (content: string) => JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'svc-pro', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
const chatLine = (id: string) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { messages: [{ role: 'user', content: id }] } });
const idOf = (body: string) => (JSON.parse(body) as { messages: Array<{ content: string }> }).messages[0]!.content;
/** `count` answers, each the completion for the request it gets (the workers' order is not fixed). */
const answers = (count: number): Handler[] =>
  Array.from({ length: count }, () => (_req, res, body) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(completion(idOf(body)));
  });
const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean);

beforeAll(async () => {
  emulator = await startEmulator({ apiKeys: ['e2e-batch-key-0123'] });
  sandbox = makeSandbox({ SVC_BASE_URL: server().baseUrl, SVC_API_KEY: 'e2e-batch-key-0123' });
});
afterAll(async () => {
  await emulator.close();
  sandbox.cleanup();
});

describe('svc batch in a real process', () => {
  it('SIGINT mid-run: exit 130, finished lines kept whole; the rerun sends only what has no line', async () => {
    const ids = Array.from({ length: 20 }, (_, index) => `q${index}`);
    writeFileSync(home('sig.jsonl'), ids.map(chatLine).join('\n'));
    // The first five are answered; the next two (one per worker) are held unanswered, and with
    // both workers waiting on them nothing more can be sent.
    server().script(...answers(5), reply.silent(), reply.silent());
    const child = execa(process.execPath, [SVC_BIN, 'batch', 'sig.jsonl', '-o', 'sig.out.jsonl', '--concurrency', '2'], { cwd: sandbox.home, env: sandbox.env, extendEnv: false, reject: false, stdin: 'ignore', timeout: 20_000 });
    // Wait until both workers hang on held requests, after the five answers.
    await expect.poll(() => server().requests.length, { timeout: 10_000 }).toBe(7);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(hasStackTrace(result.stderr)).toBe(false);
    // Truthful: the two held requests were in flight (interrupted), and the counts add up to 20.
    expect(result.stderr).toContain('20 requests: 5 succeeded, 0 failed, 2 interrupted, 13 not sent');
    expect(result.stderr).toContain('svc: interrupted');
    const kept = lines(home('sig.out.jsonl')).map((line) => JSON.parse(line) as { custom_id: string; response: { status_code: number } });
    expect(kept).toHaveLength(5);
    expect(kept.every((line) => line.response.status_code === 200)).toBe(true);

    const done = new Set(kept.map((line) => line.custom_id));
    server().assertAllUsed();
    server().reset();
    server().script(...answers(15));
    const rerun = await svc(['batch', 'sig.jsonl', '-o', 'sig.out.jsonl', '--concurrency', '2'], sandbox);
    expect(rerun.exitCode).toBe(0);
    expect(rerun.stderr).toContain('5 already done, 15 to go');
    expect(server().requests.map((request) => idOf(request.body)).sort()).toEqual(ids.filter((id) => !done.has(id)).sort());
    const all = lines(home('sig.out.jsonl')).map((line) => (JSON.parse(line) as { custom_id: string }).custom_id);
    expect(all.sort()).toEqual([...ids].sort());
  });

  it('reads requests from stdin (-), and prompts from stdin (--prompts -), against the emulator', async () => {
    const env = { ...sandbox.env, SVC_BASE_URL: emulator.baseUrl };
    const input = ['hello', 'what is rust?'].map((text, index) => JSON.stringify({ custom_id: `s${index}`, method: 'POST', url: '/v1/chat/completions', body: { messages: [{ role: 'user', content: text }] } })).join('\n');
    const fromStdin = await svc(['batch', '-'], sandbox, { env, input });
    expect(fromStdin.exitCode, fromStdin.stderr).toBe(0);
    expect(fromStdin.stdout.split('\n').map((line) => (JSON.parse(line) as { custom_id: string }).custom_id).sort()).toEqual(['s0', 's1']);
    expect(fromStdin.stderr).toMatch(/^2 requests: 2 succeeded, 0 failed/);

    const prompts = await svc(['batch', '--prompts', '-', '-o', 'prompts.out.jsonl'], sandbox, { env, input: 'one\n\ntwo\n' });
    expect(prompts.exitCode, prompts.stderr).toBe(0);
    expect(lines(home('prompts.out.jsonl')).map((line) => (JSON.parse(line) as { custom_id: string }).custom_id).sort()).toEqual(['line-1', 'line-3']);
  });

  it('a pipe named as a path (<(…), /dev/stdin, --prompts <(…)) is read once and every request sent', async () => {
    const env = { ...sandbox.env, SVC_BASE_URL: emulator.baseUrl };
    writeFileSync(home('three.jsonl'), ['p0', 'p1', 'p2'].map(chatLine).join('\n'));
    const script = [
      `"${process.execPath}" "${SVC_BIN}" batch <(cat three.jsonl) -o sub.out.jsonl || exit 11`,
      `cat three.jsonl | "${process.execPath}" "${SVC_BIN}" batch /dev/stdin -o dev.out.jsonl || exit 12`,
      `"${process.execPath}" "${SVC_BIN}" batch --prompts <(printf 'a\\nb\\n') -o prompts-sub.out.jsonl || exit 13`,
    ].join('\n');
    const result = await execa('bash', ['-c', script], { cwd: sandbox.home, env, extendEnv: false, reject: false, timeout: 20_000 });
    expect(result.exitCode, result.stderr).toBe(0);
    const ids = (file: string) => lines(home(file)).map((line) => (JSON.parse(line) as { custom_id: string }).custom_id).sort();
    expect(ids('sub.out.jsonl')).toEqual(['p0', 'p1', 'p2']);
    expect(ids('dev.out.jsonl')).toEqual(['p0', 'p1', 'p2']);
    expect(ids('prompts-sub.out.jsonl')).toEqual(['line-1', 'line-2']);
  });

  it('a named pipe nobody writes to: SIGINT stops svc at once, exit 130, nothing sent and no lock left', async () => {
    await execa('mkfifo', [home('requests.fifo')]);
    const child = execa(process.execPath, [SVC_BIN, 'batch', 'requests.fifo', '-o', 'fifo.out.jsonl'], { cwd: sandbox.home, env: sandbox.env, extendEnv: false, reject: false, stdin: 'ignore', timeout: 20_000 });
    // It is waiting for a writer once the lock on its output is taken.
    await expect.poll(() => existsSync(home('fifo.out.jsonl.lock')), { timeout: 10_000 }).toBe(true);
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(result.stderr).toContain('svc: interrupted');
    expect(existsSync(home('fifo.out.jsonl.lock'))).toBe(false);
    expect(server().requests).toHaveLength(0);
  });

  it('a bad line on stdin: exit 2, listed, nothing sent', async () => {
    const result = await svc(['batch', '-'], sandbox, { input: `${chatLine('ok')}\n{oops\n` });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('stdin: 1 bad line; nothing was sent\n  line 2: not valid JSON');
    expect(server().requests).toHaveLength(0);
  });
});
