import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConversationSession } from '../../src/conversations/session.js';
import { ConversationStore } from '../../src/conversations/store.js';
import { UsageError } from '../../src/core/errors.js';

let home: string;
let env: Record<string, string>;
let store: ConversationStore;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'svc-store-'));
  env = { HOME: home, XDG_DATA_HOME: join(home, 'data') };
  store = new ConversationStore(env);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('ConversationSession and its log', () => {
  it('replaying the log gives the state the session had', () => {
    const session = ConversationSession.fresh(store, 'work');
    session.setSystem('be brief');
    session.addTurn({ user: 'q1', assistant: 'a1' });
    session.addTurn({ user: 'q2', assistant: 'a2 partial', interrupted: true });
    session.setModel('svc-mini');
    session.addTurn({ user: 'q3', assistant: 'a3' });
    expect(session.undo()?.user).toBe('q3');
    const read = store.read('work');
    expect(read.system).toBe('be brief');
    expect(read.model).toBe('svc-mini');
    expect(read.turns.map((turn) => [turn.user, turn.assistant, turn.interrupted ?? false])).toEqual([
      ['q1', 'a1', false],
      ['q2', 'a2 partial', true],
    ]);
    expect(ConversationSession.resume(store, 'work', true).messages('next')).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: 'a1' },
      { role: 'user', content: 'q2' },
      { role: 'assistant', content: 'a2 partial' },
      { role: 'user', content: 'next' },
    ]);
  });

  it('an empty interrupted reply sends only the user message', () => {
    const session = ConversationSession.fresh(undefined);
    session.addTurn({ user: 'q', assistant: '', interrupted: true });
    expect(session.messages()).toEqual([{ role: 'user', content: 'q' }]);
  });

  it('writes nothing until there is something to keep, and nothing at all without a store', () => {
    ConversationSession.fresh(store, 'empty');
    expect(store.exists('empty')).toBe(false);
    const unsaved = ConversationSession.fresh(undefined, 'unsaved');
    unsaved.addTurn({ user: 'q', assistant: 'a' });
    expect(store.list()).toEqual([]);
  });

  it('files are owner-only in an owner-only folder', () => {
    ConversationSession.fresh(store, 'private').addTurn({ user: 'secret', assistant: 'ok' });
    expect(statSync(store.pathOf('private')).mode & 0o777).toBe(0o600);
    expect(statSync(store.dir).mode & 0o777).toBe(0o700);
  });

  it('a torn last line (a crash mid-write) is skipped, the rest is kept', () => {
    const session = ConversationSession.fresh(store, 'torn');
    session.addTurn({ user: 'kept', assistant: 'yes' });
    appendFileSync(store.pathOf('torn'), '{"type":"turn","user":"half');
    expect(store.read('torn').turns.map((turn) => turn.user)).toEqual(['kept']);
  });
});

describe('ConversationStore listing', () => {
  it('lists newest first with turn counts, finds the latest, deletes', () => {
    // Two moments a minute apart, for the records (list) and for the files (latest): the names
    // sort the other way round, so a tie would show.
    const [before, after] = [new Date('2026-01-02T10:00:00Z'), new Date('2026-01-02T10:01:00Z')];
    vi.useFakeTimers({ toFake: ['Date'], now: before });
    try {
      ConversationSession.fresh(store, 'older').addTurn({ user: 'first question', assistant: 'a' });
      vi.setSystemTime(after);
      const newer = ConversationSession.fresh(store, 'newer');
      newer.addTurn({ user: 'second\nquestion', assistant: 'a' });
      newer.addTurn({ user: 'more', assistant: 'b' });
    } finally {
      vi.useRealTimers();
    }
    utimesSync(store.pathOf('older'), before, before);
    utimesSync(store.pathOf('newer'), after, after);
    expect(store.list().map((s) => [s.name, s.turns])).toEqual([
      ['newer', 2],
      ['older', 1],
    ]);
    expect(store.latest()).toBe('newer');
    store.delete('newer');
    expect(store.latest()).toBe('older');
    expect(() => store.delete('newer')).toThrow(UsageError);
  });

  it('reading a conversation that does not exist is a usage error', () => {
    expect(() => store.read('nope')).toThrow('no saved conversation named "nope"');
  });
});

describe('two processes writing at once', () => {
  it('6 writers appending 80 turns each to one conversation leave every turn, none torn', async () => {
    const module = fileURLToPath(new URL('../../dist/conversations/session.js', import.meta.url));
    const storeModule = fileURLToPath(new URL('../../dist/conversations/store.js', import.meta.url));
    const writer = `
      const { ConversationSession } = await import(${JSON.stringify(module)});
      const { ConversationStore } = await import(${JSON.stringify(storeModule)});
      const store = new ConversationStore(process.env);
      const session = ConversationSession.resume(store, 'shared', true);
      for (let i = 0; i < 80; i++) session.addTurn({ user: process.argv[1] + ':' + i, assistant: 'x'.repeat(2000) });
    `;
    await Promise.all(
      Array.from({ length: 6 }, (_, n) => execa(process.execPath, ['--input-type=module', '-e', writer, `w${n}`], { env: { ...process.env, ...env }, timeout: 20_000 })),
    );
    // A writer that looks at the file's last byte while another's write is landing may start its
    // record on a fresh line: a blank line, which reading skips. Every other line is a record.
    const lines = readFileSync(store.pathOf('shared'), 'utf8').split('\n').filter((line) => line !== '');
    expect(lines.every((line) => JSON.parse(line))).toBe(true);
    const users = store.read('shared').turns.map((turn) => turn.user);
    expect(users).toHaveLength(480);
    expect(new Set(users).size).toBe(480);
  });
});
