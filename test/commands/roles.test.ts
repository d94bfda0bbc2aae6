/**
 * `svc roles` and `svc chat --role`, in-process against the strict scripted server: what a role
 * sets, what beats it (flags), what it beats (environment, stored settings), built-in roles and
 * overriding them, and an unknown role refused with nothing sent.
 */
import { existsSync, readFileSync, writeFileSync, mkdirSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { roleFilePath } from '../../src/roles/store.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer, type Handler } from '../helpers/scripted-server.js';

const context = useScriptedServer();
let sandbox: Sandbox;
const answer = (text = 'ok'): Handler => reply.sse([chunk(text, 'stop'), 'data: [DONE]\n\n']);
const bodies = () => context.server.requests.map((request) => JSON.parse(request.body) as Record<string, unknown> & { messages: Array<{ role: string; content: string }> });

beforeEach(() => {
  sandbox = makeSandbox({ SVC_BASE_URL: context.server.baseUrl, SVC_API_KEY: 'roles-key-0123456789', SVC_MAX_RETRIES: '0' });
});
afterEach(() => sandbox.cleanup());

describe('svc roles set, show, list, rm', () => {
  it('saves a role as a hand-editable Markdown file that show prints and list names', async () => {
    const set = await runSvc(['roles', 'set', 'reviewer', '--system', 'You review code.', '-m', 'svc-mini', '-t', '0.2', '--stop', 'END'], sandbox);
    expect(set.exitCode).toBe(0);
    const path = roleFilePath(sandbox.env, 'reviewer');
    expect(readFileSync(path, 'utf8')).toBe('---\nmodel: svc-mini\ntemperature: 0.2\nstop: END\n---\nYou review code.\n');
    expect((await runSvc(['roles', 'show', 'reviewer'], sandbox)).stdout).toBe(readFileSync(path, 'utf8'));
    const list = await runSvc(['roles', 'list'], sandbox);
    expect(list.stdout.split('\n').map((line) => line.split('\t').slice(0, 2).join(' '))).toEqual(['commit built-in', 'explain built-in', 'reviewer file', 'shell built-in', 'translate built-in', '']);
  });

  it('changes only what is given on an existing role, and needs --system for a new one', async () => {
    await runSvc(['roles', 'set', 'r', '--system', 'Be brief.', '-t', '0.5'], sandbox);
    await runSvc(['roles', 'set', 'r', '--max-tokens', '20'], sandbox);
    expect(readFileSync(roleFilePath(sandbox.env, 'r'), 'utf8')).toBe('---\nmax_tokens: 20\ntemperature: 0.5\n---\nBe brief.\n');
    const fresh = await runSvc(['roles', 'set', 'new', '-t', '1'], sandbox);
    expect(fresh.exitCode).toBe(2);
    expect(fresh.stderr).toContain('there is no role named "new" yet: a new role needs --system');
  });

  it('refuses bad values and names with exit 2, writing nothing', async () => {
    expect((await runSvc(['roles', 'set', 'r', '--system', 'x', '-t', '9'], sandbox)).stderr).toContain('--temperature must be a number from 0 to 2');
    expect((await runSvc(['roles', 'set', 'Bad/Name', '--system', 'x'], sandbox)).exitCode).toBe(2);
    expect(existsSync(roleFilePath(sandbox.env, 'r'))).toBe(false);
  });

  it('deletes a role file (delete, or rm); a built-in role cannot be deleted, but a file replacing it can', async () => {
    expect((await runSvc(['roles', 'delete', 'shell'], sandbox)).stderr).toContain('shell is a built-in role and cannot be deleted');
    await runSvc(['roles', 'set', 'shell', '-m', 'svc-mini'], sandbox);
    expect((await runSvc(['roles', 'list'], sandbox)).stdout).toContain('shell\tfile (replaces the built-in)\t');
    const removed = await runSvc(['roles', 'rm', 'shell'], sandbox);
    expect(removed.stderr).toBe('svc: deleted role "shell" (the built-in one applies again)\n');
    expect((await runSvc(['roles', 'rm', 'nope'], sandbox)).stderr).toContain('no role named "nope"; roles: commit, explain, shell, translate');
  });

  it('lists a broken role file with what is wrong, and keeps listing the rest', async () => {
    mkdirSync(join(sandbox.env.XDG_CONFIG_HOME!, 'svc', 'roles'), { recursive: true });
    writeFileSync(roleFilePath(sandbox.env, 'broken'), '---\ntemperature: hot\n---\nx\n');
    const list = await runSvc(['roles', 'list'], sandbox);
    expect(list.exitCode).toBe(0);
    expect(list.stderr).toContain(`the role file ${roleFilePath(sandbox.env, 'broken')} is not usable: temperature must be a number from 0 to 2`);
    expect(list.stdout.split('\n').map((line) => line.split('\t')[0])).toEqual(['commit', 'explain', 'shell', 'translate', '']);
  });
});

describe('svc roles edit', () => {
  const editor = (script: string): string => {
    const path = join(sandbox.home, 'editor.sh');
    writeFileSync(path, `#!/bin/sh\n${script}\n`);
    chmodSync(path, 0o755);
    return path;
  };

  it('starts a built-in role from its text and saves the edit as a role file of the user', async () => {
    const result = await runSvc(['roles', 'edit', 'commit'], sandbox, { stdinKind: 'tty', env: { EDITOR: editor('sed -i "s/temperature: 0/temperature: 0.3/" "$1"') } });
    expect(result.exitCode).toBe(0);
    expect(readFileSync(roleFilePath(sandbox.env, 'commit'), 'utf8')).toMatch(/^---\ntemperature: 0\.3\n---\nYou write git commit messages\./);
  });

  it('keeps an edit that cannot be used beside the role, and starts from it next time', async () => {
    const bad = await runSvc(['roles', 'edit', 'mine'], sandbox, { stdinKind: 'tty', env: { EDITOR: editor('printf -- "---\\ntemprature: 1\\n---\\nHello\\n" > "$1"') } });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('the role was not saved: line 2: "temprature" is not a role setting');
    expect(existsSync(roleFilePath(sandbox.env, 'mine'))).toBe(false);
    const again = await runSvc(['roles', 'edit', 'mine'], sandbox, { stdinKind: 'tty', env: { EDITOR: editor('sed -i "s/temprature/temperature/" "$1"') } });
    expect(again.exitCode).toBe(0);
    expect(readFileSync(roleFilePath(sandbox.env, 'mine'), 'utf8')).toBe('---\ntemperature: 1\n---\nHello\n');
    expect(existsSync(`${roleFilePath(sandbox.env, 'mine')}.draft`)).toBe(false);
  });
});

describe('svc chat --role', () => {
  it('sends the role system message and defaults', async () => {
    context.server.script(answer());
    await runSvc(['roles', 'set', 'r', '--system', 'Be brief.', '-m', 'svc-mini', '-t', '0.3', '--max-tokens', '40'], sandbox);
    expect((await runSvc(['chat', '--role', 'r', 'hi'], sandbox)).exitCode).toBe(0);
    const [body] = bodies();
    expect(body).toMatchObject({ model: 'svc-mini', temperature: 0.3, max_tokens: 40 });
    expect(body!.messages).toEqual([{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }]);
  });

  it('is beaten by the flags given (-m, -s, -t), and beats the environment and stored settings', async () => {
    context.server.script(answer(), answer());
    await runSvc(['roles', 'set', 'r', '--system', 'Be brief.', '-m', 'svc-mini', '-t', '0.3'], sandbox);
    await runSvc(['config', 'set', 'model', 'stored-model'], sandbox);
    await runSvc(['chat', '--role', 'r', '-m', 'flag-model', '-s', 'Flag system.', '-t', '1.5', 'hi'], sandbox, { env: { SVC_MODEL: 'env-model' } });
    await runSvc(['chat', '--role', 'r', 'hi'], sandbox, { env: { SVC_MODEL: 'env-model' } });
    const [flagged, plain] = bodies();
    expect([flagged!.model, flagged!.temperature, flagged!.messages[0]]).toEqual(['flag-model', 1.5, { role: 'system', content: 'Flag system.' }]);
    expect([plain!.model, plain!.temperature, plain!.messages[0]]).toEqual(['svc-mini', 0.3, { role: 'system', content: 'Be brief.' }]);
  });

  it('uses a built-in role, or the file of the same name in its place', async () => {
    context.server.script(answer(), answer());
    await runSvc(['chat', '--role', 'shell', 'list files'], sandbox);
    await runSvc(['roles', 'set', 'shell', '--system', 'My own shell role.'], sandbox);
    await runSvc(['chat', '--role', 'shell', 'list files'], sandbox);
    const [builtIn, mine] = bodies();
    expect(builtIn!.messages[0]!.content).toMatch(/^You turn a request into a shell command\. Answer with a single shell command/);
    expect(builtIn!.temperature).toBe(0);
    expect(mine!.messages[0]!.content).toBe('My own shell role.');
  });

  it('refuses an unknown role with exit 2, listing the known ones, nothing sent', async () => {
    await runSvc(['roles', 'set', 'mine', '--system', 'x'], sandbox);
    const result = await runSvc(['chat', '--role', 'nope', 'hi'], sandbox, { stdin: 'not read either' });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe('svc: error: no role named "nope"; roles: commit, explain, mine, shell, translate\n  create it with `svc roles set nope --system "..."`\n');
    expect(context.server.requests).toEqual([]);
  });

  it('refuses a broken role file with exit 2, naming it, nothing sent', async () => {
    mkdirSync(join(sandbox.env.XDG_CONFIG_HOME!, 'svc', 'roles'), { recursive: true });
    writeFileSync(roleFilePath(sandbox.env, 'shell'), '---\nmax_tokens: 0\n---\nx\n');
    const result = await runSvc(['chat', '--role', 'shell', 'hi'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`the role file ${roleFilePath(sandbox.env, 'shell')} is not usable: max_tokens must be a whole number 1 or more`);
    expect(context.server.requests).toEqual([]);
  });

  it('a role file that is not UTF-8 is refused, never sent as U+FFFD nor rewritten by roles set', async () => {
    mkdirSync(join(sandbox.env.XDG_CONFIG_HOME!, 'svc', 'roles'), { recursive: true });
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x67, 0x61, 0x72, 0x62, 0x61, 0x67, 0x65]);
    writeFileSync(roleFilePath(sandbox.env, 'binary'), bytes);
    const chat = await runSvc(['chat', '--role', 'binary', 'hi'], sandbox);
    expect(chat.exitCode).toBe(2);
    expect(chat.stderr).toContain(`the role file ${roleFilePath(sandbox.env, 'binary')} is not UTF-8 text; nothing was sent`);
    expect(context.server.requests).toEqual([]);
    const set = await runSvc(['roles', 'set', 'binary', '-m', 'svc-mini'], sandbox);
    expect(set.exitCode).toBe(2);
    expect(readFileSync(roleFilePath(sandbox.env, 'binary')).equals(bytes)).toBe(true);
  });
});
