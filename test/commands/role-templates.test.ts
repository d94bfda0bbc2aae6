/**
 * Templates with blanks, as a user meets them: `svc roles set --prompt`, `svc roles show`
 * listing the blanks, `svc chat --role R --var k=v` (words and piped stdin as {{input}}), an
 * unfilled blank as exit 2 before anything is read or sent, batch --prompts lines through the
 * template, the session wrapping each message, and all of them sending the same message.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { roleFilePath } from '../../src/roles/store.js';
import { promptWithRole, roleToUse } from '../../src/roles/fill-role.js';
import { runSvc } from '../helpers/in-process.js';
import { runScriptedSession } from '../helpers/scripted-session.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer } from '../helpers/scripted-server.js';
import { sessionPlan } from '../helpers/session-plan.js';

const scripted = useScriptedServer();
let sandbox: Sandbox;
const answer = () => reply.sse([chunk('ok', 'stop'), 'data: [DONE]\n\n']);
const completion = { id: 'c', object: 'chat.completion', created: 1, model: 'svc-pro', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] };
type Sent = { model: string; messages: Array<{ role: string; content: string }> };
const bodies = () => scripted.server.requests.map((request) => JSON.parse(request.body) as Sent);

beforeEach(async () => {
  sandbox?.cleanup();
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'template-key-0123456789', SVC_MAX_RETRIES: '0' });
  const set = await runSvc(['roles', 'set', 'interpret', '--system', 'You translate into {{lang}}, {{tone:plainly}}.', '--prompt', 'Translate this:\n\n{{input}}'], sandbox);
  expect(set.exitCode, set.stderr).toBe(0);
});
afterAll(() => sandbox?.cleanup());

describe('svc roles set --prompt and svc roles show', () => {
  it('keeps the template in the file and lists the blanks on stderr', async () => {
    const shown = await runSvc(['roles', 'show', 'interpret'], sandbox);
    expect(shown.stdout).toBe('---\nprompt: "Translate this:\\n\\n{{input}}"\n---\nYou translate into {{lang}}, {{tone:plainly}}.\n');
    expect(shown.stderr).toBe('svc: blanks to fill with --var: lang, tone (default "plainly"), input (the prompt)\n');
    const listed = await runSvc(['roles', 'list', '--json'], sandbox);
    const row = (JSON.parse(listed.stdout) as Array<{ name: string; blanks: unknown }>).find((entry) => entry.name === 'interpret');
    expect(row?.blanks).toEqual([{ name: 'lang' }, { name: 'tone', defaultValue: 'plainly' }, { name: 'input' }]);
  });
});

describe('svc chat --role with --var', () => {
  it('fills the system message and puts the words into {{input}}', async () => {
    scripted.server.script(answer());
    const result = await runSvc(['chat', '--no-save', '--role', 'interpret', '--var', 'lang=German', 'good morning'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(bodies()[0]!.messages).toEqual([
      { role: 'system', content: 'You translate into German, plainly.' },
      { role: 'user', content: 'Translate this:\n\ngood morning' },
    ]);
  });

  it('piped stdin is {{input}} too; a value holding braces is sent as written', async () => {
    scripted.server.script(answer());
    const result = await runSvc(['chat', '--no-save', '--role', 'interpret', '--var', 'lang={{x}}', '--var', 'tone=warmly'], sandbox, { stdin: 'Hello {{name}}\n' });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(bodies()[0]!.messages).toEqual([
      { role: 'system', content: 'You translate into {{x}}, warmly.' },
      { role: 'user', content: 'Translate this:\n\nHello {{name}}' },
    ]);
  });

  it('an unfilled blank is exit 2 naming it, before stdin is read or anything sent', async () => {
    scripted.server.script();
    const result = await runSvc(['chat', '--role', 'interpret', 'hi'], sandbox, { stdin: 'never read' });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('the role "interpret" has a blank {{lang}} with no default: give --var lang=…');
  });

  it('a --var the role lacks, or --var without a role, is exit 2', async () => {
    scripted.server.script();
    const typo = await runSvc(['chat', '--role', 'interpret', '--var', 'lang=x', '--var', 'lnag=y', 'hi'], sandbox);
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain('--var lnag: the role "interpret" has no blank {{lnag}}');
    const noRole = await runSvc(['chat', '--var', 'lang=x', 'hi'], sandbox);
    expect(noRole.exitCode).toBe(2);
    expect(noRole.stderr).toContain('give --role too');
  });

  it('a template that needs the prompt, with none given, is exit 2', async () => {
    scripted.server.script();
    const result = await runSvc(['chat', '--role', 'interpret', '--var', 'lang=x'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('give it as words or pipe it in');
  });

  it('a template without {{input}} needs no prompt: the template alone is the message', async () => {
    writeFileSync(roleFilePath(sandbox.env, 'joke'), '---\nprompt: Tell a joke about {{topic:cats}}.\n---\nYou are funny.\n');
    scripted.server.script(answer());
    const result = await runSvc(['chat', '--no-save', '--role', 'joke'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(bodies()[0]!.messages.at(-1)).toEqual({ role: 'user', content: 'Tell a joke about cats.' });
  });
});

describe('svc batch --role --var', () => {
  it('sends each --prompts line through the template, with the role system message', async () => {
    writeFileSync(join(sandbox.home, 'lines.txt'), 'one\ntwo\n');
    scripted.server.script(reply.json(200, completion), reply.json(200, completion));
    const result = await runSvc(['batch', '--prompts', 'lines.txt', '--concurrency', '1', '--role', 'interpret', '--var', 'lang=Welsh'], sandbox);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(bodies().map((body) => body.messages)).toEqual(['one', 'two'].map((line) => [
      { role: 'system', content: 'You translate into Welsh, plainly.' },
      { role: 'user', content: `Translate this:\n\n${line}` },
    ]));
  });

  it('an unfilled blank is exit 2 before anything is sent', async () => {
    writeFileSync(join(sandbox.home, 'lines.txt'), 'one\n');
    scripted.server.script();
    const result = await runSvc(['batch', '--prompts', 'lines.txt', '--role', 'interpret'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('{{lang}}');
  });
});

describe('the session with a templated role', () => {
  it('wraps each typed message in the template', async () => {
    scripted.server.script(answer(), answer());
    const plan = { ...sessionPlan(), vars: { lang: 'Dutch' } };
    const role = roleToUse(sandbox.env, 'interpret', plan.vars);
    await runScriptedSession(sandbox, ['first', 'second'], { plan, start: { role }, prepare: (session) => session.setSystem(role!.system) });
    expect(bodies().map((body) => body.messages.at(-1)!.content)).toEqual(['Translate this:\n\nfirst', 'Translate this:\n\nsecond']);
    expect(bodies()[1]!.messages[0]).toEqual({ role: 'system', content: 'You translate into Dutch, plainly.' });
  });
});

describe('one wrapping for every caller', () => {
  // A template without {{input}} (the prompt goes after it) and a value holding braces: the
  // cases where two wrappings would most easily differ.
  const template = '---\nprompt: "Answer in {{lang}} ({{style:briefly}}):"\n---\nYou are terse.\n';
  const vars = { lang: '{{input}}' };
  const lastUserMessage = (): string => bodies().at(-1)!.messages.at(-1)!.content;

  it('one-shot chat, the session (its role from --role, and from /role) and batch send the same message (the first message piped to -i: session.pty.test.ts)', async () => {
    writeFileSync(roleFilePath(sandbox.env, 'brief'), template);
    const expected = promptWithRole(roleToUse(sandbox.env, 'brief', vars), 'good morning');
    expect(expected).toBe('Answer in {{input}} (briefly):\n\ngood morning');
    const sent: Record<string, string> = {};

    scripted.server.script(answer());
    const oneShot = await runSvc(['chat', '--no-save', '--role', 'brief', '--var', 'lang={{input}}', 'good morning'], sandbox);
    expect(oneShot.exitCode, oneShot.stderr).toBe(0);
    sent.oneShot = lastUserMessage();

    scripted.server.script(answer());
    await runScriptedSession(sandbox, ['good morning'], { plan: { ...sessionPlan(), vars }, start: { role: roleToUse(sandbox.env, 'brief', vars) } });
    sent.sessionTyped = lastUserMessage();

    scripted.server.script(answer());
    await runScriptedSession(sandbox, ['/role brief', 'good morning'], { plan: { ...sessionPlan(), vars } });
    sent.sessionRole = lastUserMessage();

    writeFileSync(join(sandbox.home, 'lines.txt'), 'good morning\n');
    scripted.server.script(reply.json(200, completion));
    const batch = await runSvc(['batch', '--prompts', 'lines.txt', '--role', 'brief', '--var', 'lang={{input}}'], sandbox);
    expect(batch.exitCode, batch.stderr).toBe(0);
    sent.batch = lastUserMessage();

    expect(sent).toEqual({ oneShot: expected, sessionTyped: expected, sessionRole: expected, batch: expected });
  });
});
