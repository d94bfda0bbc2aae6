/**
 * The interactive session driven in-process: a scripted line reader in place of the terminal,
 * the real session loop, slash commands and turn logic, against a scripted service. Covers what
 * a user meets when a send fails, a model is refused, /usage, /save and /system off.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { runSession } from '../../src/commands/chat/interactive/repl.js';
import { chatModel, openConversation } from '../../src/commands/chat/open-conversation.js';
import { ConversationStore } from '../../src/conversations/store.js';
import { createFactory } from '../../src/factory.js';
import { InterruptRouter } from '../../src/terminal/interrupts.js';
import { testIO } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { ScriptedReader } from '../helpers/scripted-reader.js';
import { chunk, reply, useScriptedServer, type Handler } from '../helpers/scripted-server.js';
import { sessionPlan } from '../helpers/session-plan.js';

// Each test scripts the answers its session needs; an unused one or an extra request fails it.
const scripted = useScriptedServer();
const server = () => scripted.server;
let sandbox: Sandbox;
const usage = (prompt: number, completion: number) => ({ usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } });
const answer = (text: string, extra: Record<string, unknown> = {}): Handler =>
  reply.sse([chunk(text, 'stop'), ...(Object.keys(extra).length > 0 ? [`data: ${JSON.stringify({ id: 'u', object: 'chat.completion.chunk', created: 1, model: 'svc-pro', choices: [], ...extra })}\n\n`] : []), 'data: [DONE]\n\n']);
const modelRefused = reply.json(404, { error: { message: "The model 'nope' does not exist or you do not have access to it.", type: 'invalid_request_error', code: 'model_not_found', param: 'model' } });
const sent = () => server().requests.map((request) => JSON.parse(request.body) as { model: string; messages: Array<{ role: string; content: string }> });

beforeEach(() => {
  sandbox?.cleanup();
  sandbox = makeSandbox({ SVC_BASE_URL: server().baseUrl, SVC_API_KEY: 'session-key-0123456789', SVC_MAX_RETRIES: '0' });
});
afterAll(() => sandbox?.cleanup());

async function session(lines: string[], name = 'talk'): Promise<{ stderr: string; store: ConversationStore }> {
  const { io, stderr } = testIO({ env: sandbox.env, cwd: sandbox.home });
  const factory = createFactory(io);
  const plan = sessionPlan({ continueLatest: false, sessionName: name, save: true });
  try {
    const settings = await factory.settings({});
    const client = await factory.apiClient(settings);
    const store = await factory.conversationStore();
    const conversation = openConversation(store, plan.conversation);
    const context = { factory, signal: new AbortController().signal, interrupts: new InterruptRouter(() => {}) };
    const reader = new ScriptedReader(lines);
    await runSession({ plan, context, client, store, session: conversation, model: chatModel(settings, conversation), reader, terminal: { fd: -1 } });
  } finally {
    await factory.dispose();
  }
  return { stderr: stderr.text(), store: new ConversationStore(sandbox.env) };
}

describe('a message whose send failed', () => {
  it('is kept as not sent, and /retry sends it', async () => {
    server().script(reply.json(500, { error: { message: 'overloaded' } }), answer('at last'));
    const { stderr, store } = await session(['hello there', '/history', '/retry']);
    // A 500: the message reached the service, which failed to answer it.
    expect(stderr).toContain('(your message got no reply: /retry sends it again');
    expect(stderr).toContain('[you] hello there [not sent: /retry sends it]');
    expect(sent()).toHaveLength(2);
    expect(sent()[1]!.messages).toEqual([{ role: 'user', content: 'hello there' }]);
    expect(store.read('talk').turns.map((turn) => [turn.user, turn.assistant])).toEqual([['hello there', 'at last']]);
  });

  it('is named when the user leaves without sending it again', async () => {
    server().script(reply.json(500, { error: { message: 'overloaded' } }));
    const { stderr } = await session(['do not lose me']);
    expect(stderr).toContain('(your last message was not sent: "do not lose me"; Up recalls it next time)');
  });
});

describe('/model with a model the service refuses', () => {
  it('says so at the first failure, goes back to the previous model, and keeps the message for /retry', async () => {
    server().script(modelRefused, answer('fine'));
    const { stderr, store } = await session(['/model nope', 'first question', '/model', '/retry']);
    expect(stderr).toContain("The model 'nope' does not exist");
    expect(stderr).toContain('(the service refused nope; back to svc-pro)');
    expect(stderr).toContain('model: svc-pro');
    expect(sent().map((body) => body.model)).toEqual(['nope', 'svc-pro']);
    expect(sent()[1]!.messages).toEqual([{ role: 'user', content: 'first question' }]);
    const saved = store.read('talk');
    // Back to the settings' model: the conversation does not stay pinned to the refused one.
    expect(saved.model).toBeUndefined();
    expect(saved.turns.map((turn) => [turn.user, turn.model])).toEqual([['first question', 'svc-pro']]);
  });

  it('a model that answers once stays, even if a later request is refused for another reason', async () => {
    server().script(answer('one'), reply.json(400, { error: { message: 'Request contains disallowed content' } }));
    const { stderr } = await session(['/model svc-mini', 'q1', 'q2', '/model']);
    expect(stderr).toContain('Request contains disallowed content');
    expect(stderr).not.toContain('refused svc-mini');
    expect(stderr).toContain('model: svc-mini');
  });
});

describe('/usage', () => {
  it('the session and whole-conversation figures agree on the first session, /retry included', async () => {
    server().script(answer('first', usage(5, 7)), answer('second', usage(5, 9)));
    const { stderr } = await session(['q1', '/retry', '/usage']);
    const session_ = /this session: +tokens: (.*)/.exec(stderr)?.[1];
    const whole = /whole conversation: tokens: (.*), over/.exec(stderr)?.[1];
    expect(session_).toBe('10 prompt + 16 completion = 26 total');
    expect(whole).toBe(session_);
  });
});

describe('/save and /system', () => {
  it('/save into a folder that does not exist says which folder', async () => {
    const target = join(sandbox.home, 'no', 'such', 'out.json');
    const { stderr } = await session([`/save ${target}`]);
    expect(stderr).toContain(`could not save: the folder ${join(sandbox.home, 'no', 'such')} does not exist`);
    expect(stderr).not.toMatch(/ENOENT: no such file/);
    // With a trailing slash the name is a folder, even one that does not exist: no file is made.
    const slashed = await session([`/save ${join(sandbox.home, 'newdir')}/`]);
    expect(slashed.stderr).toContain(`could not save: the folder ${join(sandbox.home, 'newdir')} does not exist`);
    expect(existsSync(join(sandbox.home, 'newdir'))).toBe(false);
  });

  it('/save ~/file.json writes in the home folder, and never over an existing file or folder', async () => {
    server().script(answer('kept'));
    mkdirSync(join(sandbox.home, 'a-folder'));
    writeFileSync(join(sandbox.home, 'taken.json'), 'mine');
    const { stderr } = await session(['q', '/save ~/out.json', '/save ~/taken.json', '/save ~/a-folder']);
    expect(JSON.parse(readFileSync(join(sandbox.home, 'out.json'), 'utf8'))).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'kept' },
    ]);
    expect(readFileSync(join(sandbox.home, 'taken.json'), 'utf8')).toBe('mine');
    expect(stderr).toContain('taken.json exists; not overwritten');
    expect(stderr).toContain(`${join(sandbox.home, 'a-folder')} is a folder: give a file name`);
    expect(existsSync(join(sandbox.home, '~'))).toBe(false);
  });

  it('/system off with no system message says there is none, and writes nothing', async () => {
    const { stderr, store } = await session(['/system off', '/system be brief', '/system be brief']);
    expect(stderr).toContain('(there is no system message to remove)');
    expect(stderr).not.toContain('(system message removed)');
    expect(stderr).toContain('(the system message is that already)');
    const records = readFileSync(store.pathOf('talk'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string });
    expect(records.filter((record) => record.type === 'system')).toHaveLength(1);
  });
});

describe('a conversation that cannot be written any more', () => {
  it('goes on in memory, says once that it is no longer saved and where, and does not claim it was saved', async () => {
    const store = new ConversationStore(sandbox.env);
    // The service's answer lands after the folder has turned into a file (a disk gone bad, a user's mistake).
    server().script(async (req, res, body) => {
      rmSync(store.dir, { recursive: true, force: true });
      writeFileSync(store.dir, 'not a folder');
      await answer('one')(req, res, body);
    }, answer('two'));
    const { stderr } = await session(['q1', 'q2']);
    expect(stderr.match(/no longer being saved/g)).toHaveLength(1);
    expect(stderr).toContain(`cannot write ${join(store.dir, 'talk.jsonl')}`);
    expect(stderr).not.toContain('saved as');
    // The second turn still carried the first: the conversation went on in memory.
    expect(sent()[1]!.messages.map((message) => message.content)).toEqual(['q1', 'one', 'q2']);
  });
});
