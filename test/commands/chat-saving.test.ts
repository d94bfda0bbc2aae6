/**
 * One-shot chats and `svc sessions` over a conversations folder in bad shape, in-process against
 * a scripted service that records what was sent: nothing sent when saving is known to be
 * impossible, nothing lost when it fails late or when the reader of stdout goes away.
 */
import { appendFileSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../src/conversations/store.js';
import { InterruptRouter } from '../../src/terminal/interrupts.js';
import { main } from '../../src/main.js';
import { CapturedStream, runSvc, testIO } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer, type Handler } from '../helpers/scripted-server.js';

// Each test scripts the answers it needs; an unused one or a request it did not expect fails it.
const scripted = useScriptedServer();
let sandbox: Sandbox;
const answer = (...words: string[]): Handler => reply.sse([...words.map((word) => chunk(word)), chunk(undefined, 'stop'), 'data: [DONE]\n\n']);
const sentMessages = () => scripted.server.requests.map((request) => (JSON.parse(request.body) as { messages: Array<{ content: string }> }).messages.map((m) => m.content));
const server = () => scripted.server;
const store = () => new ConversationStore(sandbox.env);

beforeEach(() => {
  sandbox?.cleanup();
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'saving-key-0123456789', SVC_MAX_RETRIES: '0' });
});
afterAll(() => sandbox?.cleanup());

describe('--continue and --session over damaged or stray files', () => {
  it('--continue never picks a stray file: it continues the real conversation and exits 0', async () => {
    server().script(answer('A1'), answer('A2'));
    expect((await runSvc(['chat', 'Q1'], sandbox)).exitCode).toBe(0);
    const old = new Date(Date.now() - 3600_000);
    const [real] = store().list();
    utimesSync(store().pathOf(real!.name), old, old);
    writeFileSync(join(store().dir, 'my notes.jsonl'), 'notes\n');
    writeFileSync(join(store().dir, 'stray.jsonl'), '{"not":"svc"}\n');
    mkdirSync(join(store().dir, 'folder.jsonl'));
    const result = await runSvc(['chat', '--continue', 'Q2'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(sentMessages().at(-1)).toEqual(['Q1', 'A1', 'Q2']);
  });

  it('--session of a conversation with damaged lines sends the rest and warns once, naming the file and line', async () => {
    server().script(answer('A1'), answer('A2'));
    await runSvc(['chat', '--session', 'work', 'Q1'], sandbox);
    appendFileSync(store().pathOf('work'), '{"type":"turn","user":42}\n{"type":"turn","user":"cut');
    const result = await runSvc(['chat', '--session', 'work', 'Q2'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(sentMessages().at(-1)).toEqual(['Q1', 'A1', 'Q2']);
    expect(result.stderr).toBe(`svc: ${store().pathOf('work')}: line 3 skipped (not a conversation record), line 4 skipped (not complete JSON); the rest is kept\n`);
    expect(store().read('work').turns.map((turn) => turn.user)).toEqual(['Q1', 'Q2']);
  });

  it('--session naming a folder is refused before anything is sent', async () => {
    mkdirSync(join(store().dir, 'box.jsonl'), { recursive: true });
    const result = await runSvc(['chat', '--session', 'box', 'hello'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('box.jsonl is a folder, not a saved conversation');
    expect(server().requests).toHaveLength(0);
  });
});

describe('svc sessions with a damaged conversation among good ones', () => {
  beforeEach(async () => {
    server().script(answer('fine'), answer('fine'));
    await runSvc(['chat', '--session', 'good', 'a good question'], sandbox);
    await runSvc(['chat', '--session', 'bad', 'a question'], sandbox);
    appendFileSync(store().pathOf('bad'), 'null\n{"type":"turn","user":"u","assistant":"a","at":5}\n');
    writeFileSync(join(store().dir, 'other.jsonl'), '[1,2,3]\n');
  });

  it('list shows every readable conversation and names the damage on stderr', async () => {
    const result = await runSvc(['sessions', 'list', '--json'], sandbox);
    expect(result.exitCode).toBe(0);
    expect((JSON.parse(result.stdout) as Array<{ name: string }>).map((row) => row.name).sort()).toEqual(['bad', 'good']);
    expect(result.stderr).toContain('bad.jsonl: line 3 skipped (not a conversation record), line 4 skipped (not a conversation record)');
    expect(result.stderr).toContain('other.jsonl: no line in it is a conversation record; left out');
  });

  it('show prints what can be read; delete removes it', async () => {
    const show = await runSvc(['sessions', 'show', 'bad'], sandbox);
    expect(show.exitCode).toBe(0);
    expect(show.stdout).toBe('[user]\na question\n\n[assistant]\nfine\n');
    expect(show.stderr).toContain('bad.jsonl: line 3 skipped');
    const deleted = await runSvc(['sessions', 'delete', 'bad'], sandbox);
    expect(deleted.exitCode).toBe(0);
    expect(store().exists('bad')).toBe(false);
  });

  it('a conversations folder that is a file: sessions list says so (exit 1)', async () => {
    rmSync(store().dir, { recursive: true });
    writeFileSync(store().dir, 'x');
    const result = await runSvc(['sessions', 'list'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^svc: error: cannot read the saved conversations in .*conversations: a part of the path is not a folder \(ENOTDIR\)\n$/);
  });
});

describe('a data folder that cannot be written', () => {
  it('is found before anything is sent: exit 1, the folder named, a way out given', async () => {
    mkdirSync(join(sandbox.home, 'data', 'svc'), { recursive: true });
    writeFileSync(store().dir, 'not a folder');
    const result = await runSvc(['chat', 'hello'], sandbox);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(`svc: error: cannot save conversations in ${store().dir}: it is a file, not a folder\n  move that file away, or add --no-save to keep nothing\n`);
    expect(server().requests).toHaveLength(0);
    server().script(answer('ok'));
    expect((await runSvc(['chat', '--no-save', 'hello'], sandbox)).exitCode).toBe(0);
  });

  it('found late, the reply is still on stdout and stderr says it was not saved and where (exit 1)', async () => {
    server().script(async (req, res, body) => {
      rmSync(store().dir, { recursive: true, force: true });
      mkdirSync(join(sandbox.home, 'data', 'svc'), { recursive: true });
      writeFileSync(store().dir, 'not a folder any more');
      await answer('the', ' answer')(req, res, body);
    });
    const result = await runSvc(['chat', '--session', 'late', 'hello'], sandbox);
    expect(result.stdout).toBe('the answer\n');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`error: the reply was not saved: cannot write ${join(store().dir, 'late.jsonl')}`);
    expect(result.stderr).toContain(`free some space or fix ${store().dir}`);
  });
});

/** stdout whose reader has gone (`| head -c 10` after its ten bytes, `| true`): every write fails with EPIPE. */
function readerGone(): CapturedStream {
  const stdout = new CapturedStream();
  stdout.failWith = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
  return stdout;
}

describe('the reader of stdout going away (svc chat ... | head -c 10)', () => {
  it('is a quiet success, and the exchange is kept, marked interrupted, as far as it came', async () => {
    // Two pieces, then the stream stays open until svc hangs up: only the reader leaving ends it.
    server().script((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk('first '));
      res.write(chunk('second '));
    });
    const { io, stderr } = testIO({ env: sandbox.env, cwd: sandbox.home });
    io.stdout = readerGone();
    const exitCode = await main(['chat', '--session', 'piped', 'tell me'], io, { interrupts: new InterruptRouter(() => {}) });
    expect(exitCode).toBe(0);
    expect(stderr.text()).toBe('');
    const [kept] = store().read('piped').turns;
    expect(kept?.user).toBe('tell me');
    expect(kept?.interrupted).toBe(true);
    expect(kept?.assistant).toMatch(/^first /);
  });

  it('a reply that had all come is kept as complete', async () => {
    server().script(
      reply.json(200, { id: 'c', object: 'chat.completion', created: 1, model: 'svc-pro', choices: [{ index: 0, message: { role: 'assistant', content: 'all of it' }, finish_reason: 'stop' }] }),
    );
    const { io } = testIO({ env: sandbox.env, cwd: sandbox.home });
    io.stdout = readerGone();
    const exitCode = await main(['chat', '--no-stream', '--session', 'whole', 'tell me'], io, { interrupts: new InterruptRouter(() => {}) });
    expect(exitCode).toBe(0);
    expect(store().read('whole').turns.map((turn) => [turn.assistant, turn.interrupted ?? false])).toEqual([['all of it', false]]);
  });
});
