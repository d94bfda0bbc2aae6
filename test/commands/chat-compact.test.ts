/**
 * `svc chat --continue --compact` (and `--session NAME --compact`), in-process against a scripted
 * service: alone it prints the summary on stdout and says what it did on stderr, exit 0; with a
 * message it compacts, then sends the message with the summary as its system note, and stdout is
 * the reply's alone. Without a saved conversation to compact it is a usage error, nothing sent;
 * a failure keeps nothing. Then `svc sessions show` in its three forms over the compacted file.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { SUMMARY_INSTRUCTION, summaryNote } from '../../src/conversations/compaction.js';
import { ConversationSession } from '../../src/conversations/session.js';
import { ConversationStore } from '../../src/conversations/store.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer, type Handler } from '../helpers/scripted-server.js';

const scripted = useScriptedServer();
let sandbox: Sandbox;
const answer = (text: string): Handler => reply.sse([chunk(text, 'stop'), `data: ${JSON.stringify({ id: 'u', object: 'chat.completion.chunk', created: 1, model: 'svc-pro', choices: [], usage: { prompt_tokens: 50, completion_tokens: 7, total_tokens: 57 } })}\n\n`, 'data: [DONE]\n\n']);
type Sent = { model: string; messages: Array<{ role: string; content: string }> };
const sent = (): Sent[] => scripted.server.requests.map((request) => JSON.parse(request.body) as Sent);
const store = () => new ConversationStore(sandbox.env);

beforeEach(() => {
  sandbox?.cleanup();
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'compact-key-0123456789', SVC_MAX_RETRIES: '0' });
});
afterAll(() => sandbox?.cleanup());

/** A saved conversation `name` of `count` turns, Q1/A1... (written directly: nothing sent). */
function saved(name: string, count: number): void {
  const session = ConversationSession.fresh(store(), name);
  for (let n = 1; n <= count; n++) session.addTurn({ user: `Q${n}`, assistant: `A${n}`, model: 'svc-pro' });
}

describe('svc chat --compact', () => {
  it('--continue --compact: the summary on stdout, what it did on stderr, exit 0; the conversation sends it from then on', async () => {
    saved('work', 5);
    scripted.server.script(answer('They spoke of boats.'));
    const result = await runSvc(['chat', '--continue', '--compact'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('They spoke of boats.\n');
    expect(result.stderr).toBe('svc: compacted 3 turns into a summary (7 tokens); the last 2 turns are sent as they are; /rewind 3 in `svc chat --session work` undoes it\n');
    expect(sent()[0]!.messages[0]).toEqual({ role: 'system', content: SUMMARY_INSTRUCTION });
    expect(sent()[0]!.messages[1]!.content).toBe('Summarise this conversation:\n\nUser:\nQ1\n\nAssistant:\nA1\n\nUser:\nQ2\n\nAssistant:\nA2\n\nUser:\nQ3\n\nAssistant:\nA3');
    expect(store().read('work').compactions).toMatchObject([{ summary: 'They spoke of boats.', through: 3, kept: 2, usage: { completion_tokens: 7 } }]);
  });

  it('--session NAME --compact "message": compacts, then sends the message with the summary; stdout holds the reply alone', async () => {
    saved('work', 4);
    saved('other', 1);
    scripted.server.script(answer('S'), answer('A5'));
    const result = await runSvc(['chat', '--session', 'work', '--compact', '--max-tokens', '9', '-t', '0.5', 'Q5'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('A5\n');
    expect(result.stderr).toContain('svc: compacted 2 turns into a summary');
    const compaction = store().read('work').compactions[0]!;
    expect(sent()[1]!.messages).toEqual([
      { role: 'system', content: summaryNote(compaction) },
      { role: 'user', content: 'Q3' },
      { role: 'assistant', content: 'A3' },
      { role: 'user', content: 'Q4' },
      { role: 'assistant', content: 'A4' },
      { role: 'user', content: 'Q5' },
    ]);
    expect(store().read('work').turns.at(-1)).toMatchObject({ user: 'Q5', assistant: 'A5' });
    // The request settings go with the summary request too, but not --max-tokens: that limit is the reply's.
    const [summarising, replying] = scripted.server.requests.map((request) => JSON.parse(request.body) as Record<string, unknown>);
    expect(summarising).toMatchObject({ model: 'svc-pro', temperature: 0.5, stream: true });
    expect(summarising!.max_tokens).toBeUndefined();
    expect(replying).toMatchObject({ temperature: 0.5, max_tokens: 9 });
  });

  it('--usage prints the summary\'s counts; with --no-save nothing is kept, and the note says so', async () => {
    saved('work', 4);
    scripted.server.script(answer('S'));
    const result = await runSvc(['chat', '--continue', '--compact', '--usage', '--no-save'], sandbox);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('svc: compacted 2 turns into a summary (7 tokens); the last 2 turns are sent as they are; not saved (--no-save)\ntokens: 50 prompt + 7 completion = 57 total\n');
    expect(store().read('work').compactions).toEqual([]);
  });

  it('with nothing new to compact it says so, sends nothing, and exits 0 (a message still goes)', async () => {
    saved('work', 2);
    const alone = await runSvc(['chat', '--continue', '--compact'], sandbox);
    expect(alone.exitCode).toBe(0);
    expect(alone.stdout).toBe('');
    expect(alone.stderr).toBe('svc: nothing to compact: the conversation has 2 turns, and the last 2 are kept as they are\n');
    expect(sent()).toEqual([]);
    scripted.server.script(answer('A3'));
    expect((await runSvc(['chat', '--continue', '--compact', 'Q3'], sandbox)).stdout).toBe('A3\n');
    expect(sent()[0]!.messages).toHaveLength(5);
  });

  it.each([
    [['chat', '--compact'], '--compact compacts a saved conversation: add --continue (the one changed last) or --session NAME'],
    [['chat', '--compact', 'hello'], '--compact compacts a saved conversation'],
    [['chat', '--continue', '--compact', '-i'], '--compact is for one-shot runs; in the session, /compact [N] does it'],
    [['chat', '--continue', '--compact', '--dry-run', 'hi'], '--compact and --dry-run cannot be used together'],
    [['chat', '--continue', '--compact', '--json'], '--compact with no message prints the summary; --json needs a message to answer'],
  ])('%j is a usage error, exit 2, nothing sent', async (args, message) => {
    saved('work', 4);
    const result = await runSvc(args, sandbox);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`svc: error: ${message}`);
    expect(sent()).toEqual([]);
    expect(store().read('work').compactions).toEqual([]);
  });

  it('a service error ends the run with its exit code, the message unsent and nothing compacted', async () => {
    saved('work', 4);
    scripted.server.script(reply.json(400, { error: { message: 'bad request', type: 'invalid_request_error' } }));
    const result = await runSvc(['chat', '--continue', '--compact', 'Q5'], sandbox);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('svc: error: ');
    expect(sent()).toHaveLength(1);
    const read = store().read('work');
    expect(read.compactions).toEqual([]);
    expect(read.turns).toHaveLength(4);
  });
});

describe('svc sessions show after a compaction', () => {
  async function compacted(): Promise<void> {
    saved('work', 4);
    scripted.server.script(answer('They spoke of boats.'));
    expect((await runSvc(['chat', '--continue', '--compact'], sandbox)).exitCode).toBe(0);
  }

  it('plain: the summary in place of the turns it covers, then the later turns', async () => {
    await compacted();
    const shown = await runSvc(['sessions', 'show', 'work'], sandbox);
    expect(shown.stdout).toBe('[summary of turns 1–2, sent in their place; --all shows them]\nThey spoke of boats.\n\n[user]\nQ3\n\n[assistant]\nA3\n\n[user]\nQ4\n\n[assistant]\nA4\n');
  });

  it('sessions export keeps every turn and marks where the summary takes over (Markdown and HTML)', async () => {
    await compacted();
    const md = await runSvc(['sessions', 'export', 'work', '--format', 'md'], sandbox);
    expect(md.exitCode, md.stderr).toBe(0);
    expect(md.stdout).toMatch(/## User \(turn 2\)\n\nQ2\n\n## Assistant \([^)]*\)\n\nA2\n\n## Summary of turns 1–2 \([^;]+; sent in their place from here on\)\n\nThey spoke of boats\.\n\n## User \(turn 3\)/);
    expect(md.stdout).toContain('## User (turn 1)');
    const html = await runSvc(['sessions', 'export', 'work', '--format', 'html'], sandbox);
    expect(html.stdout).toMatch(/<section class="system summary"><h2 class="who">Summary of turns 1–2 <span class="meta">\([^;]+; sent in their place from here on\)<\/span><\/h2><div class="body"><p>They spoke of boats\.<\/p>/);
    expect(html.stdout.indexOf('Summary of turns 1–2')).toBeGreaterThan(html.stdout.indexOf('User (turn 2)'));
    expect(html.stdout.indexOf('Summary of turns 1–2')).toBeLessThan(html.stdout.indexOf('User (turn 3)'));
  });

  it('--all: every turn, and the compaction where it was made (marked undone after an undo past it)', async () => {
    await compacted();
    const all = await runSvc(['sessions', 'show', 'work', '--all', '--usage'], sandbox);
    expect(all.stdout).toContain('[user]\nQ1\n\n[assistant]\nA1\n\n[user]\nQ2');
    expect(all.stdout).toContain('[assistant]\nA4\n\n[compaction: turns 1–2 summarised, the last 2 kept · 50 prompt + 7 completion tokens]\nThey spoke of boats.\n');
    const resumed = ConversationSession.resume(store(), 'work', true);
    for (const _ of [4, 3]) resumed.undo();
    expect((await runSvc(['sessions', 'show', 'work', '--all'], sandbox)).stdout).toContain('[compaction: turns 1–2 summarised, the last 2 kept]');
    resumed.undo();
    expect((await runSvc(['sessions', 'show', 'work', '--all'], sandbox)).stdout).toContain('[compaction: turns 1–2 summarised, the last 2 kept, undone]');
    expect((await runSvc(['sessions', 'show', 'work'], sandbox)).stdout).toBe('[user]\nQ1\n\n[assistant]\nA1\n');
  });

  it('--json: the messages the service would be sent, the summary as the system message', async () => {
    await compacted();
    const json = JSON.parse((await runSvc(['sessions', 'show', 'work', '--json'], sandbox)).stdout) as Array<{ role: string; content: string }>;
    expect(json).toEqual([
      { role: 'system', content: summaryNote(store().read('work').compactions[0]!) },
      { role: 'user', content: 'Q3' },
      { role: 'assistant', content: 'A3' },
      { role: 'user', content: 'Q4' },
      { role: 'assistant', content: 'A4' },
    ]);
  });
});
