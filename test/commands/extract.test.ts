/**
 * Code extraction (issue 24, item 3): `svc chat -x` prints only the answer's fenced code to
 * stdout while a terminal on stderr still sees the answer; `--extract-last` the last block; no
 * block is exit 1; `--continue` works; batch records get an `extract` field; `/copy code` in
 * the session copies the last reply's code.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { runScriptedSession } from '../helpers/scripted-session.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer } from '../helpers/scripted-server.js';

const ANSWER = 'Save this as `hello.sh`:\n\n```sh\n#!/bin/sh\necho "hello"\n```\n\nThen run it:\n\n```\nsh hello.sh\n```\n';
const streamed = (text: string) => reply.sse([chunk(text.slice(0, 20)), chunk(text.slice(20), 'stop'), 'data: [DONE]\n\n']);
const completion = (text: string) => ({ id: 'c', object: 'chat.completion', created: 1, model: 'svc-pro', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] });

const scripted = useScriptedServer();
let sandbox: Sandbox;
beforeEach(() => {
  sandbox?.cleanup();
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'extract-key-0123456789', SVC_MAX_RETRIES: '0' });
});
afterAll(() => sandbox?.cleanup());

describe('svc chat --extract', () => {
  it('prints every block, joined by a blank line, and nothing of the prose; stderr stays quiet in a pipe', async () => {
    scripted.server.script(streamed(ANSWER));
    const result = await runSvc(['chat', '-x', 'a hello script'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('#!/bin/sh\necho "hello"\n\nsh hello.sh\n');
    expect(result.stderr).toBe('');
  });

  it('--extract-last prints the last block; the whole answer is still saved', async () => {
    scripted.server.script(streamed(ANSWER));
    const result = await runSvc(['chat', '--extract-last', '--session', 'code', 'a hello script'], sandbox);
    expect(result.stdout).toBe('sh hello.sh\n');
    const shown = await runSvc(['sessions', 'show', 'code'], sandbox);
    expect(shown.stdout).toContain('echo "hello"');
    expect(shown.stdout).toContain('Then run it:');
  });

  it('on a terminal, stderr shows the answer rendered while stdout gets only the code', async () => {
    scripted.server.script(streamed(ANSWER));
    const result = await runSvc(['chat', '-x', 'a hello script'], sandbox, { stderrIsTTY: true, env: { CI: 'true' } });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe('#!/bin/sh\necho "hello"\n\nsh hello.sh\n');
    expect(result.stderr).toContain('Then run it:');
    expect(result.stderr).toContain('echo "hello"');
    // Rendered: the Markdown fences are drawn, not printed.
    expect(result.stderr).not.toContain('```');
  });

  it('an answer without a code block: nothing on stdout, exit 1 saying so', async () => {
    scripted.server.script(streamed('There is no code for that.'));
    const result = await runSvc(['chat', '-x', 'a poem'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('the answer has no fenced code block, so --extract printed nothing');
  });

  it('works with --continue: the earlier turns are sent, the new answer extracted', async () => {
    scripted.server.script(streamed('First, no code.'), streamed('```\nfixed()\n```'));
    expect((await runSvc(['chat', 'write code'], sandbox)).exitCode).toBe(0);
    const result = await runSvc(['chat', '-c', '-x', 'now as code'], sandbox);
    expect(result.stdout).toBe('fixed()\n');
    const sent = JSON.parse(scripted.server.requests.at(-1)!.body) as { messages: Array<{ content: string }> };
    expect(sent.messages.map((message) => message.content)).toEqual(['write code', 'First, no code.', 'now as code']);
  });

  it('a terminal escape inside the code reaches a terminal stdout neutralised, a pipe exactly', async () => {
    scripted.server.script(streamed('```\nprintf "\u001b]0;owned\u0007"\n```'), streamed('```\nprintf "\u001b]0;owned\u0007"\n```'));
    const onTerminal = await runSvc(['chat', '-x', 'q'], sandbox, { stdoutIsTTY: true, env: { CI: 'true' } });
    expect(onTerminal.stdout).not.toContain('\u001b');
    const inPipe = await runSvc(['chat', '-x', 'q'], sandbox);
    expect(inPipe.stdout).toBe('printf "\u001b]0;owned\u0007"\n');
  });

  it('is refused with --json and in the interactive session (exit 2, nothing sent)', async () => {
    scripted.server.script();
    const json = await runSvc(['chat', '-x', '--json', 'q'], sandbox);
    expect(json.exitCode).toBe(2);
    expect(json.stderr).toContain('--extract and --json cannot be used together');
    const interactive = await runSvc(['chat', '--extract-last', '-i'], sandbox);
    expect(interactive.exitCode).toBe(2);
    expect(interactive.stderr).toContain('/copy code');
  });
});

describe('svc batch --extract', () => {
  it('gives every chat record an extract field: the code, or null when the answer has none', async () => {
    const line = (id: string) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { messages: [{ role: 'user', content: id }] } });
    writeFileSync(join(sandbox.home, 'in.jsonl'), `${line('code')}\n${line('prose')}\n`);
    scripted.server.script(reply.json(200, completion(ANSWER)), reply.json(200, completion('just words')));
    const result = await runSvc(['batch', 'in.jsonl', '-o', 'out.jsonl', '--concurrency', '1', '--extract-last'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    const records = readFileSync(join(sandbox.home, 'out.jsonl'), 'utf8').trim().split('\n').map((text) => JSON.parse(text) as { custom_id: string; extract: unknown });
    expect(Object.fromEntries(records.map((record) => [record.custom_id, record.extract]))).toEqual({ code: 'sh hello.sh', prose: null });
  });
});

describe('/copy code in the session', () => {
  it("copies only the last reply's code; /copy alone still copies all of it; a reply without code says so", async () => {
    scripted.server.script(streamed(ANSWER), streamed('no code at all'));
    const { stderr } = await runScriptedSession(sandbox, ['a script', '/copy code', '/copy', '/copy codes', 'again', '/copy code']);
    const talk = stderr;
    const copies = [...talk.matchAll(/\u001b\]52;c;([A-Za-z0-9+/=]*)\u0007/g)].map((match) => Buffer.from(match[1]!, 'base64').toString('utf8'));
    expect(copies).toEqual(['#!/bin/sh\necho "hello"\n\nsh hello.sh', ANSWER]);
    expect(talk).toContain('/copy takes nothing (the last reply) or "code"');
    expect(talk).toContain('(the last reply has no fenced code block; /copy copies all of it)');
  });
});
