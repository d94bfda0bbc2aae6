/**
 * /compact [N] in the interactive session, driven in-process (scripted line reader, the real
 * session loop and slash commands) against a scripted service: the summary request it sends,
 * the summary shown as it streams, the record kept, the next request carrying the summary as
 * its system note; nothing kept on Ctrl-C or a failure; /rewind and /undo past it undo it;
 * /usage counts it; /history shows it; /fork copies it.
 */
import { beforeEach, afterAll, describe, expect, it } from 'vitest';
import { runSession } from '../../src/commands/chat/interactive/repl.js';
import { chatModel, openConversation } from '../../src/commands/chat/open-conversation.js';
import { SUMMARY_INSTRUCTION, summaryNote } from '../../src/conversations/compaction.js';
import { ConversationStore } from '../../src/conversations/store.js';
import { createFactory } from '../../src/factory.js';
import { InterruptRouter } from '../../src/terminal/interrupts.js';
import { testIO } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { ScriptedReader } from '../helpers/scripted-reader.js';
import { chunk, reply, useScriptedServer, type Handler } from '../helpers/scripted-server.js';
import { sessionPlan } from '../helpers/session-plan.js';

const scripted = useScriptedServer();
const server = () => scripted.server;
let sandbox: Sandbox;
const counted = (prompt: number, completion: number) => `data: ${JSON.stringify({ id: 'u', object: 'chat.completion.chunk', created: 1, model: 'svc-pro', choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } })}\n\n`;
const answer = (text: string, tokens?: [number, number]): Handler => reply.sse([chunk(text, 'stop'), ...(tokens ? [counted(...tokens)] : []), 'data: [DONE]\n\n']);
type Sent = { model: string; tools?: unknown; messages: Array<{ role: string; content: string }> };
const sent = (): Sent[] => server().requests.map((request) => JSON.parse(request.body) as Sent);
const store = () => new ConversationStore(sandbox.env);

beforeEach(() => {
  sandbox?.cleanup();
  sandbox = makeSandbox({ SVC_BASE_URL: server().baseUrl, SVC_API_KEY: 'compact-key-0123456789', SVC_MAX_RETRIES: '0' });
});
afterAll(() => sandbox?.cleanup());

async function session(input: string[] | ScriptedReader, options: { terminal?: boolean } = {}): Promise<{ stdout: string; stderr: string }> {
  const { io, stdout, stderr } = testIO({ env: sandbox.env, cwd: sandbox.home, stderrIsTTY: options.terminal ?? false });
  const factory = createFactory(io);
  const plan = sessionPlan();
  try {
    const settings = await factory.settings({});
    const client = await factory.apiClient(settings);
    const conversations = await factory.conversationStore();
    const conversation = openConversation(conversations, plan.conversation);
    const context = { factory, signal: new AbortController().signal, interrupts: new InterruptRouter(() => {}) };
    const reader = Array.isArray(input) ? new ScriptedReader(input) : input;
    await runSession({ plan, context, client, store: conversations, session: conversation, model: chatModel(settings, conversation), reader, terminal: { fd: -1 } });
  } finally {
    await factory.dispose();
  }
  return { stdout: stdout.text(), stderr: stderr.text() };
}

/** A saved conversation "talk" of four turns, Q1..Q4 answered A1..A4. */
async function fourTurns(): Promise<void> {
  server().script(answer('A1'), answer('A2'), answer('A3'), answer('A4'));
  await session(['Q1', 'Q2', 'Q3', 'Q4']);
}

describe('/compact', () => {
  it('sends the turns to summarise as one transcript (no tools, the session model), shows the summary, keeps it, and the next message goes with it as the system note', async () => {
    await fourTurns();
    server().script(answer('They spoke of boats.', [80, 6]), answer('A5'));
    const { stdout, stderr } = await session(['/compact', 'Q5']);
    const [summarising, next] = sent().slice(4);
    expect(summarising!.model).toBe('svc-pro');
    expect(summarising!.tools).toBeUndefined();
    expect(summarising!.messages).toEqual([
      { role: 'system', content: SUMMARY_INSTRUCTION },
      { role: 'user', content: 'Summarise this conversation:\n\nUser:\nQ1\n\nAssistant:\nA1\n\nUser:\nQ2\n\nAssistant:\nA2' },
    ]);
    expect(stdout).toContain('They spoke of boats.\n');
    expect(stderr).toContain('(compacted 2 turns into a summary (6 tokens); the last 2 turns are sent as they are; /rewind 3 undoes it)');
    const compaction = store().read('talk').compactions[0]!;
    expect(compaction).toMatchObject({ summary: 'They spoke of boats.', through: 2, kept: 2, model: 'svc-pro', usage: { prompt_tokens: 80, completion_tokens: 6, total_tokens: 86 } });
    expect(next!.messages).toEqual([
      { role: 'system', content: summaryNote(compaction) },
      { role: 'user', content: 'Q3' },
      { role: 'assistant', content: 'A3' },
      { role: 'user', content: 'Q4' },
      { role: 'assistant', content: 'A4' },
      { role: 'user', content: 'Q5' },
    ]);
  });

  it('/compact N keeps N turns; with nothing new to summarise it says so and sends nothing', async () => {
    await fourTurns();
    server().script(answer('S'));
    const { stderr } = await session(['/compact 1', '/compact 1', '/compact 9', '/compact two']);
    expect(sent()).toHaveLength(5);
    expect(sent()[4]!.messages[1]!.content).toContain('User:\nQ3\n\nAssistant:\nA3');
    expect(stderr).toContain('(compacted 3 turns into a summary; the last turn is sent as it is; /rewind 2 undoes it)');
    expect(stderr).toContain('(nothing to compact: no more than 1 turn since the last summary (of turns 1–3))');
    expect(stderr).toContain('(nothing to compact: no more than 9 turns since the last summary (of turns 1–3))');
    expect(stderr).toMatch(/\/compact must be a whole number .*\(\/compact N keeps the last N turns as they are\)/);
    expect(store().read('talk').compactions).toHaveLength(1);
  });

  it('in a conversation of two turns there is nothing to compact', async () => {
    server().script(answer('A1'), answer('A2'));
    const { stderr } = await session(['Q1', 'Q2', '/compact']);
    expect(stderr).toContain('(nothing to compact: the conversation has 2 turns, and the last 2 are kept as they are)');
    expect(sent()).toHaveLength(2);
  });

  it("a service error is reported as a turn's is, and nothing is kept", async () => {
    await fourTurns();
    server().script(reply.json(500, { error: { message: 'overloaded' } }), answer('A5'));
    const { stderr } = await session(['/compact', 'Q5']);
    expect(stderr).toContain('svc: error: the service failed: overloaded (HTTP 500)');
    expect(stderr).toContain('(nothing was compacted: /compact tries again)');
    expect(store().read('talk').compactions).toEqual([]);
    expect(sent().at(-1)!.messages.map((message) => message.content)).toEqual(['Q1', 'A1', 'Q2', 'A2', 'Q3', 'A3', 'Q4', 'A4', 'Q5']);
  });

  it('Ctrl-C while the summary is on its way keeps nothing, and the session goes on', async () => {
    await fourTurns();
    const reader = new ScriptedReader(['/compact', 'Q5']);
    const held: Handler = Object.assign(() => reader.pressCtrlC(), { label: 'held, then Ctrl-C' });
    server().script(held, answer('A5'));
    const { stdout, stderr } = await session(reader);
    expect(stderr).toContain('(compaction interrupted; nothing changed)');
    expect(stdout).toContain('A5');
    expect(store().read('talk').compactions).toEqual([]);
    expect(sent().at(-1)!.messages).toHaveLength(9);
  });

  it("the summary's tokens count in /usage, for the session and the whole conversation", async () => {
    server().script(answer('A1', [5, 5]), answer('A2', [5, 5]), answer('A3', [5, 5]), answer('S', [20, 3]));
    const { stderr } = await session(['Q1', 'Q2', 'Q3', '/compact', '/usage']);
    expect(stderr).toMatch(/this session: +tokens: 35 prompt \+ 18 completion = 53 total/);
    expect(stderr).toMatch(/whole conversation: tokens: 35 prompt \+ 18 completion = 53 total, over 3 turns/);
  });
});

describe('undoing a compaction, and where it shows', () => {
  it('/rewind past the compaction undoes it and says so; the next message is sent with every turn left', async () => {
    await fourTurns();
    server().script(answer('S'), answer('A5'));
    const { stderr } = await session(['/compact', '/rewind 3', 'Q5']);
    expect(stderr).toContain('(the compaction of turns 1–2 is undone: every turn is sent again)');
    expect(sent().at(-1)!.messages.map((message) => message.content)).toEqual(['Q1', 'A1', 'Q5']);
    expect(store().read('talk').compactions).toEqual([]);
  });

  it('/undo of a turn after the compaction, or of one it kept, keeps it; /undo past it undoes it', async () => {
    await fourTurns();
    server().script(answer('S'), answer('A5'));
    const { stderr } = await session(['/compact', 'Q5', '/undo', '/undo', '/undo', '/undo']);
    expect(stderr.match(/is undone/g)).toHaveLength(1);
    expect(stderr).toMatch(/\(dropped: "Q2" and its reply\)\n\(the compaction of turns 1–2 is undone: every turn is sent again\)/);
  });

  it('/retry right after /compact asks again with the summary still in force', async () => {
    await fourTurns();
    server().script(answer('S'), answer('A4 again'));
    const { stderr } = await session(['/compact', '/retry']);
    expect(stderr).not.toContain('is undone');
    expect(sent().at(-1)!.messages.map((message) => message.content)).toEqual([expect.stringContaining('S'), 'Q3', 'A3', 'Q4']);
    expect(store().read('talk').compactions).toHaveLength(1);
  });

  it('resuming a compacted conversation says how many of its turns are summarised', async () => {
    await fourTurns();
    server().script(answer('S'));
    await session(['/compact']);
    expect((await session([])).stderr).toContain('resuming "talk" (4 turns, the first 2 summarised)');
  });

  it('/history shows the summary after the turns it stands for', async () => {
    await fourTurns();
    server().script(answer('They spoke of boats.'));
    const { stderr } = await session(['/compact', '/history']);
    expect(stderr).toContain('[svc-pro] A2\n[summary of turns 1–2, sent in their place] They spoke of boats.\n[you] Q3\n');
  });

  it('/fork copies the compaction: the copy sends the summary too', async () => {
    await fourTurns();
    server().script(answer('S'), answer('A5'));
    await session(['/compact', '/fork copy', 'Q5']);
    expect(store().read('copy').compactions).toMatchObject([{ summary: 'S', through: 2, kept: 2 }]);
    expect(sent().at(-1)!.messages[0]!.content).toContain('S');
    expect(sent().at(-1)!.messages).toHaveLength(6);
  });
});
