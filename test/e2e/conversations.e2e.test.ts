/** One-shot chats are saved; --continue, --session and --no-save; svc sessions. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeSandbox, svc, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';

let server: ScriptedServer;
let sandbox: Sandbox;
const answer = (text: string) => reply.sse([chunk(text, 'stop'), 'data: [DONE]\n\n']);
const lastMessages = () => JSON.parse(server.requests.at(-1)?.body ?? '{}').messages;

beforeAll(async () => {
  server = await startScriptedServer(answer('A1'));
});
afterAll(async () => server.close());
beforeEach(() => {
  sandbox?.cleanup();
  sandbox = makeSandbox({ SVC_BASE_URL: server.baseUrl, SVC_API_KEY: 'conv-key-0123456789abcdef' });
  server.requests.length = 0;
  server.script(answer('A1'));
});

describe('saved one-shot conversations', () => {
  it('--continue sends the conversation so far and adds to it', async () => {
    server.script(answer('A1'));
    await svc(['chat', 'Q1'], sandbox);
    server.script(answer('A2'));
    const result = await svc(['chat', '--continue', 'Q2'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(lastMessages()).toEqual([
      { role: 'user', content: 'Q1' },
      { role: 'assistant', content: 'A1' },
      { role: 'user', content: 'Q2' },
    ]);
    const list = await svc(['sessions', 'list', '--json'], sandbox);
    const rows = JSON.parse(list.stdout);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ turns: 2, first: 'Q1' });
  });

  it('--session names a conversation, created if new; -s sets its system message', async () => {
    await svc(['chat', '--session', 'work', '-s', 'be terse', 'Q1'], sandbox);
    await svc(['chat', 'unrelated'], sandbox);
    await svc(['chat', '--session', 'work', 'Q2'], sandbox);
    expect(lastMessages()).toEqual([
      { role: 'system', content: 'be terse' },
      { role: 'user', content: 'Q1' },
      { role: 'assistant', content: 'A1' },
      { role: 'user', content: 'Q2' },
    ]);
    const show = await svc(['sessions', 'show', 'work', '--json'], sandbox);
    expect(JSON.parse(show.stdout)).toHaveLength(5);
    const transcript = await svc(['sessions', 'show', 'work'], sandbox);
    expect(transcript.stdout).toContain('[system]\nbe terse');
    expect(transcript.stdout).toContain('[user]\nQ2');
  });

  it('--no-save keeps nothing', async () => {
    await svc(['chat', '--no-save', 'secret question'], sandbox);
    const list = await svc(['chat', '--list'], sandbox);
    expect(list.stdout).toBe('');
    expect(list.stderr).toContain('no saved conversations');
  });

  it('an interrupted stream is saved as far as it came, marked interrupted', async () => {
    server.script(reply.sse([chunk('half an ans')], { cut: true, delayMs: 30 }));
    const result = await svc(['chat', '--session', 'cut', 'Q'], sandbox);
    expect(result.exitCode).toBe(6);
    const show = await svc(['sessions', 'show', 'cut'], sandbox);
    expect(show.stdout).toContain('[assistant, interrupted]\nhalf an ans');
  });

  it('sessions delete removes one; bad names and missing ones are usage errors', async () => {
    await svc(['chat', '--session', 'gone', 'Q'], sandbox);
    expect((await svc(['sessions', 'delete', 'gone'], sandbox)).exitCode).toBe(0);
    expect((await svc(['sessions', 'show', 'gone'], sandbox)).exitCode).toBe(2);
    expect((await svc(['chat', '--session', '../escape', 'Q'], sandbox)).exitCode).toBe(2);
    expect((await svc(['chat', '--continue', '--session', 'x', 'Q'], sandbox)).exitCode).toBe(2);
    expect(server.requests).toHaveLength(1);
  });

  it('--continue with nothing saved is a usage error', async () => {
    const result = await svc(['chat', '--continue', 'Q'], sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('no saved conversation');
  });

  it('-i without a terminal is a usage error', async () => {
    const result = await svc(['chat', '-i'], sandbox, { input: 'notes' });
    expect(result.exitCode).toBe(2);
    expect(server.requests).toHaveLength(0);
  });
});
