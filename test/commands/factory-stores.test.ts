/**
 * The factory's conversation store and input history: made once per run, on first use, telling
 * stderr about damaged files; with --no-save the history is kept in memory only.
 */
import { existsSync, readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFactory } from '../../src/factory.js';
import { testIO } from '../helpers/in-process.js';
import { makeSandbox, type Sandbox } from '../helpers/run-svc.js';

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

describe('factory.conversationStore', () => {
  it('is one store for the run, in the data folder, naming a damaged file on stderr', async () => {
    const { io, stderr } = testIO({ env: sandbox.env });
    const factory = createFactory(io);
    const store = await factory.conversationStore();
    expect(await factory.conversationStore()).toBe(store);
    expect(store.dir).toBe(join(sandbox.env.XDG_DATA_HOME!, 'svc', 'conversations'));
    mkdirSync(store.dir, { recursive: true });
    writeFileSync(join(store.dir, 'talk.jsonl'), '{"type":"start","v":1,"name":"talk","created":"2024-01-01T00:00:00.000Z"}\n{"cut');
    expect(store.read('talk').turns).toEqual([]);
    expect(stderr.text()).toBe(`svc: ${join(store.dir, 'talk.jsonl')}: line 2 skipped (not complete JSON); the rest is kept\n`);
  });
});

describe('factory.inputHistory', () => {
  const historyFile = (): string => join(sandbox.env.XDG_STATE_HOME!, 'svc', 'input-history.jsonl');

  it('loads the saved inputs once, naming damaged lines once, and keeps new ones', async () => {
    mkdirSync(join(sandbox.env.XDG_STATE_HOME!, 'svc'), { recursive: true });
    writeFileSync(historyFile(), '"first"\n42\n"second"\n');
    const { io, stderr } = testIO({ env: sandbox.env });
    const factory = createFactory(io);
    const history = await factory.inputHistory(true);
    expect(await factory.inputHistory(true)).toBe(history);
    expect(history.entries).toEqual(['second', 'first']);
    expect(stderr.text()).toBe(`svc: ${historyFile()}: line 2 skipped (not a history entry); the rest is kept\n`);
    history.add('third');
    expect((await createFactory(testIO({ env: sandbox.env }).io).inputHistory(true)).entries).toEqual(['third', 'second', 'first']);
  });

  it('with --no-save offers the earlier inputs (Up recalls them) and writes nothing', async () => {
    mkdirSync(join(sandbox.env.XDG_STATE_HOME!, 'svc'), { recursive: true });
    writeFileSync(historyFile(), '"earlier"\n');
    const { io, stderr } = testIO({ env: sandbox.env });
    const history = await createFactory(io).inputHistory(false);
    history.add('not kept');
    expect(history.entries).toEqual(['not kept', 'earlier']);
    expect(readFileSync(historyFile(), 'utf8')).toBe('"earlier"\n');
    expect(stderr.text()).toBe('');
  });

  it('with --no-save and no history yet: none is made', async () => {
    const history = await createFactory(testIO({ env: sandbox.env }).io).inputHistory(false);
    history.add('not kept');
    expect(history.entries).toEqual(['not kept']);
    expect(existsSync(historyFile())).toBe(false);
  });
});
