/** One-shot chats are saved (in-process); --continue, --session and --no-save; svc sessions. */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer } from '../helpers/scripted-server.js';

const scripted = useScriptedServer();
let sandbox: Sandbox;
const answer = (text: string) => reply.sse([chunk(text, 'stop'), 'data: [DONE]\n\n']);
const lastMessages = () => JSON.parse(scripted.server.requests.at(-1)?.body ?? '{}').messages;

beforeEach(() => {
  sandbox?.cleanup();
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'conv-key-0123456789abcdef' });
});
afterAll(() => sandbox?.cleanup());

describe('saved one-shot conversations', () => {
  it('--continue sends the conversation so far and adds to it', async () => {
    scripted.server.script(answer('A1'));
    await runSvc(['chat', 'Q1'], sandbox);
    scripted.server.script(answer('A2'));
    const result = await runSvc(['chat', '--continue', 'Q2'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(lastMessages()).toEqual([
      { role: 'user', content: 'Q1' },
      { role: 'assistant', content: 'A1' },
      { role: 'user', content: 'Q2' },
    ]);
    const list = await runSvc(['sessions', 'list', '--json'], sandbox);
    const rows = JSON.parse(list.stdout);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ turns: 2, first: 'Q1' });
  });

  it('--session names a conversation, created if new; -s sets its system message', async () => {
    scripted.server.script(answer('A1'), answer('not for work'), answer('A2'));
    await runSvc(['chat', '--session', 'work', '-s', 'be terse', 'Q1'], sandbox);
    await runSvc(['chat', 'unrelated'], sandbox);
    await runSvc(['chat', '--session', 'work', 'Q2'], sandbox);
    expect(lastMessages()).toEqual([
      { role: 'system', content: 'be terse' },
      { role: 'user', content: 'Q1' },
      { role: 'assistant', content: 'A1' },
      { role: 'user', content: 'Q2' },
    ]);
    const show = await runSvc(['sessions', 'show', 'work', '--json'], sandbox);
    expect(JSON.parse(show.stdout)).toHaveLength(5);
    const transcript = await runSvc(['sessions', 'show', 'work'], sandbox);
    expect(transcript.stdout).toContain('[system]\nbe terse');
    expect(transcript.stdout).toContain('[user]\nQ2');
  });

  it('sessions list cuts a first line to 60 columns, wide characters counted as two', async () => {
    scripted.server.script(answer('ok'), answer('ok'));
    await runSvc(['chat', '--session', 'wide', '日本語の文章です'.repeat(6)], sandbox);
    await runSvc(['chat', '--session', 'narrow', 'an ascii line that goes on '.repeat(4)], sandbox);
    const rows = Object.fromEntries((await runSvc(['sessions', 'list'], sandbox)).stdout.trim().split('\n').map((line) => [line.split('\t')[0], line.split('\t').at(-1) ?? '']));
    // 29 wide characters (58 columns) and the one-column …: one more would pass 60.
    expect(rows.wide).toBe(`${'日本語の文章です'.repeat(3)}日本語の文…`);
    expect(rows.narrow).toHaveLength(60);
    expect(rows.narrow?.endsWith('…')).toBe(true);
  });

  it('--no-save keeps nothing', async () => {
    scripted.server.script(answer('A1'));
    await runSvc(['chat', '--no-save', 'secret question'], sandbox);
    const list = await runSvc(['chat', '--list'], sandbox);
    expect(list.stdout).toBe('');
    expect(list.stderr).toContain('no saved conversations');
    expect(JSON.parse(scripted.server.requests[0]!.body).messages).toEqual([{ role: 'user', content: 'secret question' }]);
  });

  it('an interrupted stream is saved as far as it came, marked interrupted', async () => {
    scripted.server.script(reply.sse([chunk('half an ans')], { cut: true }));
    const result = await runSvc(['chat', '--session', 'cut', 'Q'], sandbox);
    expect(result.exitCode).toBe(6);
    const show = await runSvc(['sessions', 'show', 'cut'], sandbox);
    expect(show.stdout).toContain('[assistant, interrupted]\nhalf an ans');
  });

  it('sessions delete removes one; bad names and missing ones are usage errors', async () => {
    scripted.server.script(answer('A1'));
    await runSvc(['chat', '--session', 'gone', 'Q'], sandbox);
    expect((await runSvc(['sessions', 'delete', 'gone'], sandbox)).exitCode).toBe(0);
    expect((await runSvc(['sessions', 'show', 'gone'], sandbox)).exitCode).toBe(2);
    expect((await runSvc(['chat', '--session', '../escape', 'Q'], sandbox)).exitCode).toBe(2);
    expect((await runSvc(['chat', '--continue', '--session', 'x', 'Q'], sandbox)).exitCode).toBe(2);
    expect(scripted.server.requests).toHaveLength(1);
  });

  it('--continue with nothing saved is a usage error', async () => {
    const result = await runSvc(['chat', '--continue', 'Q'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('no saved conversation');
  });

  it('-i without a terminal is a usage error', async () => {
    const result = await runSvc(['chat', '-i'], sandbox, { stdin: 'notes' });
    expect(result.exitCode).toBe(2);
    expect(scripted.server.requests).toHaveLength(0);
  });
});
