/**
 * `svc sessions fork NAME [NEW] [--at TURN]` and `svc sessions show NAME --all` (issue 24, item 6),
 * in-process: the copy is a new file (the original never changes), holds what the conversation
 * held up to that turn, and a chat with --session goes on from it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../src/conversations/store.js';
import { runSvc } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer, type Handler } from '../helpers/scripted-server.js';

const scripted = useScriptedServer();
let sandbox: Sandbox;
const answer = (text: string): Handler => reply.sse([chunk(text, 'stop'), 'data: [DONE]\n\n']);
const sent = () => scripted.server.requests.map((request) => (JSON.parse(request.body) as { messages: Array<{ content: string }> }).messages.map((message) => message.content));
const store = () => new ConversationStore(sandbox.env);
const run = (args: string[], options: { stdoutIsTTY?: boolean } = {}) => runSvc(args, sandbox, options);

beforeEach(() => {
  sandbox?.cleanup();
  sandbox = makeSandbox({ SVC_BASE_URL: scripted.server.baseUrl, SVC_API_KEY: 'fork-key-0123456789', SVC_MAX_RETRIES: '0' });
  // "work": a system message, a model chosen with /model, three turns, an image after the first,
  // and a fourth turn undone.
  const dir = join(sandbox.env.XDG_DATA_HOME!, 'svc', 'conversations');
  mkdirSync(dir, { recursive: true });
  const at = (minute: number) => `2025-05-01T10:0${minute}:00.000Z`;
  const records = [
    { type: 'start', v: 1, name: 'work', created: at(0) },
    { type: 'system', content: 'Be brief.', at: at(0) },
    { type: 'model', model: 'svc-mini', at: at(0) },
    { type: 'turn', id: 't1', user: 'Q1', assistant: 'A1', model: 'svc-mini', at: at(1) },
    { type: 'image', prompt: 'a fox', options: { aspect: '16:9' }, path: '/tmp/fox.png', at: at(2) },
    { type: 'turn', id: 't2', user: 'Q2', assistant: 'A2', model: 'svc-mini', at: at(3) },
    { type: 'turn', id: 't3', user: 'Q3', assistant: 'A3', model: 'svc-mini', at: at(4) },
    { type: 'turn', id: 't4', user: 'Q4 \u001b]0;title\u0007', assistant: 'A4', model: 'svc-mini', at: at(5) },
    { type: 'undo', turn: 't4', at: at(6) },
  ];
  writeFileSync(join(dir, 'work.jsonl'), `${records.map((record) => JSON.stringify(record)).join('\n')}\n`, { mode: 0o600 });
});
afterAll(() => sandbox?.cleanup());

describe('svc sessions fork', () => {
  it('copies the whole conversation into NEW (system, model, turns, images; not the undone turn) and never touches the original', async () => {
    const before = readFileSync(store().pathOf('work'));
    const result = await run(['sessions', 'fork', 'work', 'copy']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('copy\n');
    expect(result.stderr).toBe('svc: forked "work" (all 3 turns) as "copy" · go on with: svc chat --session copy\n');
    expect(readFileSync(store().pathOf('work'))).toEqual(before);
    const copy = store().read('copy');
    const original = store().read('work');
    expect(copy.system).toBe('Be brief.');
    expect(copy.model).toBe('svc-mini');
    expect(copy.turns).toEqual(original.turns);
    expect(copy.images).toEqual(original.images);
    // The fork was made now: it is the newest, and --since finds it.
    expect(copy.updated > original.updated).toBe(true);
    expect((await run(['sessions', 'list', '--since', '1h'])).stdout).toMatch(/^copy\t/);
  });

  it('--at TURN copies turns 1 to TURN (with the images among them); a chat with --session goes on from there', async () => {
    expect((await run(['sessions', 'fork', 'work', 'early', '--at', '1'])).stderr).toContain('forked "work" (1 of 3 turns) as "early"');
    const early = store().read('early');
    expect(early.turns.map((turn) => turn.user)).toEqual(['Q1']);
    expect(early.images.map((image) => image.prompt)).toEqual(['a fox']);
    scripted.server.script(answer('B2'));
    expect((await run(['chat', '--session', 'early', 'other Q2'])).exitCode).toBe(0);
    expect(sent()).toEqual([['Be brief.', 'Q1', 'A1', 'other Q2']]);
    expect(store().read('work').turns.map((turn) => turn.user)).toEqual(['Q1', 'Q2', 'Q3']);
  });

  it('without NEW names the copy NAME-fork, then NAME-fork-2', async () => {
    expect((await run(['sessions', 'fork', 'work'])).stdout).toBe('work-fork\n');
    expect((await run(['sessions', 'fork', 'work', '--at', '2'])).stdout).toBe('work-fork-2\n');
    expect(store().read('work-fork-2').turns).toHaveLength(2);
  });

  it.each([
    [['work', 'x', '--at', '0'], '--at must be a whole number from 1 to 3; got "0"'],
    [['work', 'x', '--at', '4'], '--at must be a whole number from 1 to 3; got "4"'],
    [['work', 'x', '--at', 'last'], '--at must be a whole number from 1 to 3; got "last"'],
    [['work', '../x'], '"../x" is not a usable conversation name'],
    [['nope', 'x'], 'no saved conversation named "nope"'],
  ])('%j is exit 2, naming what is wrong, and writes nothing', async (args, message) => {
    const result = await run(['sessions', 'fork', ...args]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(store().list().map((summary) => summary.name)).toEqual(['work']);
  });

  it('a NEW that exists is exit 2 and is left exactly as it was', async () => {
    writeFileSync(store().pathOf('taken'), '{"type":"start","v":1,"name":"taken","created":"2025-01-01T00:00:00.000Z"}\n');
    const before = readFileSync(store().pathOf('taken'));
    const result = await run(['sessions', 'fork', 'work', 'taken']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('a conversation named "taken" exists already; nothing was written');
    expect(readFileSync(store().pathOf('taken'))).toEqual(before);
    expect((await run(['sessions', 'fork', 'work', 'work'])).exitCode).toBe(2);
  });
});

describe('svc sessions show --all', () => {
  it('shows the turns an undo dropped, where they happened, marked dropped; neutralised on a terminal', async () => {
    const tail = '[user]\nQ3\n\n[assistant]\nA3\n\n[user, dropped]\nQ4 ␛]0;title␇\n\n[assistant, dropped]\nA4\n';
    const result = await run(['sessions', 'show', 'work', '--all'], { stdoutIsTTY: true });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.startsWith('[system]\nBe brief.\n\n[user]\nQ1\n\n[assistant]\nA1\n\n[image --aspect 16:9]\na fox\nsaved /tmp/fox.png\n\n')).toBe(true);
    expect(result.stdout.endsWith(tail)).toBe(true);
    expect((await run(['sessions', 'show', 'work'])).stdout).not.toContain('Q4');
  });

  it('--all with --json is exit 2: the messages array has no dropped turns', async () => {
    const result = await run(['sessions', 'show', 'work', '--all', '--json']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--all and --json cannot be used together');
  });
});
