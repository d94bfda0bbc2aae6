/**
 * Fork and rewind (issue 24, item 6) in the interactive session, driven in-process: a scripted
 * line reader, the real session loop and slash commands, a scripted service. /rewind N drops the
 * last N turns after showing them (asking first when stderr is a terminal) and keeps them in the
 * file as undo records; /fork copies the conversation and the session goes on in the copy.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { runSession } from '../../src/commands/chat/interactive/repl.js';
import { chatModel, openConversation } from '../../src/commands/chat/open-conversation.js';
import { ConversationStore } from '../../src/conversations/store.js';
import { createFactory } from '../../src/factory.js';
import { InterruptRouter } from '../../src/terminal/interrupts.js';
import { runSvc, testIO } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { ScriptedReader } from '../helpers/scripted-reader.js';
import { chunk, reply, useScriptedServer, type Handler } from '../helpers/scripted-server.js';
import { sessionPlan } from '../helpers/session-plan.js';

const scripted = useScriptedServer();
let sandbox: Sandbox;
const answer = (text: string): Handler => reply.sse([chunk(text, 'stop'), 'data: [DONE]\n\n']);
const sent = () => scripted.server.requests.map((request) => (JSON.parse(request.body) as { messages: Array<{ content: string }> }).messages.map((message) => message.content));
const store = () => new ConversationStore(sandbox.env);

beforeEach(() => {
  sandbox?.cleanup();
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'fork-key-0123456789', SVC_MAX_RETRIES: '0' });
});
afterAll(() => sandbox?.cleanup());

async function session(lines: string[], options: { name?: string; save?: boolean; terminal?: boolean } = {}): Promise<string> {
  const { io, stderr } = testIO({ env: sandbox.env, cwd: sandbox.home, stderrIsTTY: options.terminal ?? false });
  const factory = createFactory(io);
  const plan = sessionPlan({ continueLatest: false, sessionName: options.name ?? 'talk', save: options.save ?? true });
  try {
    const settings = await factory.settings({});
    const client = await factory.apiClient(settings);
    const conversations = await factory.conversationStore();
    const conversation = openConversation(conversations, plan.conversation);
    const context = { factory, signal: new AbortController().signal, interrupts: new InterruptRouter(() => {}) };
    await runSession({ plan, context, client, store: conversations, session: conversation, model: chatModel(settings, conversation), reader: new ScriptedReader(lines), terminal: { fd: -1 } });
  } finally {
    await factory.dispose();
  }
  return stderr.text();
}

/** A saved conversation "talk" of four turns, Q1..Q4 answered A1..A4. */
async function fourTurns(): Promise<void> {
  scripted.server.script(answer('A1'), answer('A2'), answer('A3'), answer('A4'));
  await session(['Q1', 'Q2', 'Q3', 'Q4']);
}

describe('/rewind N', () => {
  it('shows what goes, drops the last N turns, and the next message is sent without them', async () => {
    await fourTurns();
    scripted.server.script(answer('A5'));
    const stderr = await session(['/rewind 2', 'Q5']);
    expect(stderr).toContain('these 2 turns go:\n  3. [you] Q3\n     [svc-pro] A3\n  4. [you] Q4\n     [svc-pro] A4\n');
    expect(stderr).toContain('(dropped 2 turns; 2 left; `svc sessions show talk --all` still shows them)');
    expect(sent().at(-1)).toEqual(['Q1', 'A1', 'Q2', 'A2', 'Q5']);
    expect(store().read('talk').turns.map((turn) => turn.user)).toEqual(['Q1', 'Q2', 'Q5']);
  });

  it('keeps the dropped turns in the file as undo records naming each turn, as /undo does; show --all marks them', async () => {
    await fourTurns();
    const ids = store().read('talk').turns.map((turn) => turn.id);
    await session(['/rewind 2']);
    const undos = store()
      .records('talk')
      .filter((record) => record.type === 'undo');
    expect(undos.map((record) => (record.type === 'undo' ? record.turn : undefined))).toEqual([ids[3], ids[2]]);
    expect(store().records('talk').filter((record) => record.type === 'turn')).toHaveLength(4);
    const all = await runSvc(['sessions', 'show', 'talk', '--all'], sandbox);
    expect(all.stdout).toBe('[user]\nQ1\n\n[assistant]\nA1\n\n[user]\nQ2\n\n[assistant]\nA2\n\n[user, dropped]\nQ3\n\n[assistant, dropped]\nA3\n\n[user, dropped]\nQ4\n\n[assistant, dropped]\nA4\n');
    expect((await runSvc(['sessions', 'show', 'talk'], sandbox)).stdout).toBe('[user]\nQ1\n\n[assistant]\nA1\n\n[user]\nQ2\n\n[assistant]\nA2\n');
  });

  it('on a terminal asks first: anything but y keeps every turn; y drops them', async () => {
    await fourTurns();
    const kept = await session(['/rewind 3', 'n'], { terminal: true });
    expect(kept).toContain('these 3 turns go:');
    expect(kept).toContain('(nothing dropped)');
    expect(store().read('talk').turns).toHaveLength(4);
    const dropped = await session(['/rewind', 'y'], { terminal: true });
    expect(dropped).toContain('this turn goes:\n  4. [you] Q4\n');
    expect(dropped).toContain('(dropped 1 turn; 3 left;');
    expect(store().read('talk').turns.map((turn) => turn.user)).toEqual(['Q1', 'Q2', 'Q3']);
  });

  it('a count that is not 1 to the number of turns is refused, naming it, and drops nothing', async () => {
    await fourTurns();
    const stderr = await session(['/rewind 5', '/rewind 0', '/rewind two']);
    expect(stderr).toContain('/rewind must be a whole number from 1 to 4; got "5" (the conversation has 4 turns)');
    expect(stderr).toContain('/rewind must be a whole number from 1 to 4; got "0"');
    expect(stderr).toContain('/rewind must be a whole number from 1 to 4; got "two"');
    expect(store().read('talk').turns).toHaveLength(4);
    expect(await session(['/rewind 1'], { name: 'empty' })).toContain('(nothing to rewind)');
  });
});

describe('/fork [NAME]', () => {
  it('copies the conversation into NAME and goes on there; the original file is not changed', async () => {
    scripted.server.script(answer('A1'), answer('A2'), answer('B3'));
    await session(['/system Be brief.', 'Q1', 'Q2']);
    const before = readFileSync(store().pathOf('talk'));
    const stderr = await session(['/fork other', 'Q3', '/name']);
    expect(stderr).toContain('(forked "talk" as "other", 2 turns; going on in "other", "talk" stays as it was)');
    expect(stderr).toContain('conversation: other');
    expect(sent().at(-1)).toEqual(['Be brief.', 'Q1', 'A1', 'Q2', 'A2', 'Q3']);
    expect(readFileSync(store().pathOf('talk'))).toEqual(before);
    const fork = store().read('other');
    expect(fork.system).toBe('Be brief.');
    expect(fork.turns.map((turn) => [turn.user, turn.assistant])).toEqual([
      ['Q1', 'A1'],
      ['Q2', 'A2'],
      ['Q3', 'B3'],
    ]);
  });

  it('without a name makes NAME-fork, then NAME-fork-2; a taken or bad name is refused and the session stays', async () => {
    scripted.server.script(answer('A1'));
    await session(['Q1']);
    expect(await session(['/fork', '/name'])).toContain('conversation: talk-fork');
    expect(await session(['/fork'])).toContain('(forked "talk" as "talk-fork-2", 1 turn;');
    const refused = await session(['/fork talk-fork', '/fork ../x', '/name']);
    expect(refused).toContain('a conversation named "talk-fork" exists already; nothing was written');
    expect(refused).toContain('"../x" is not a usable conversation name');
    expect(refused).toContain('conversation: talk\n');
    expect(store().read('talk-fork').turns).toHaveLength(1);
  });

  it('with --no-save there is nothing to copy to: it says so and writes nothing', async () => {
    scripted.server.script(answer('A1'));
    const stderr = await session(['Q1', '/fork copy'], { save: false });
    expect(stderr).toContain('(/fork copies the conversation into a new saved one, and this session saves nothing');
    expect(store().exists('copy')).toBe(false);
  });
});
