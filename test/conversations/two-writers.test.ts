/**
 * Two svc processes on one conversation (issue 21, item 8): a session left open while a one-shot
 * adds a turn to the same file. Every record is its own appended line, so both turns are kept in
 * the order they were made; and an /undo in the session drops the session's own turn, never the
 * one the other process added after the session read the file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationSession } from '../../src/conversations/session.js';
import { ConversationStore } from '../../src/conversations/store.js';

let home: string;
let store: ConversationStore;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'svc-two-writers-'));
  store = new ConversationStore({ XDG_DATA_HOME: home });
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const turn = (user: string) => ({ user, assistant: `reply to ${user}`, model: 'm' });

describe('a session open while another process writes the same conversation', () => {
  it('both turns are kept, in the order they were made', () => {
    const session = ConversationSession.fresh(store, 'shared');
    session.addTurn(turn('from the session'));
    const oneShot = ConversationSession.resume(store, 'shared', true);
    oneShot.addTurn(turn('from the one-shot'));
    session.addTurn(turn('from the session again'));
    expect(store.read('shared').turns.map((t) => t.user)).toEqual(['from the session', 'from the one-shot', 'from the session again']);
  });

  it("/undo in the session drops the session's turn, not the one added by the other process", () => {
    const session = ConversationSession.fresh(store, 'shared');
    session.addTurn(turn('first'));
    session.addTurn(turn('mine, to undo'));
    const oneShot = ConversationSession.resume(store, 'shared', true);
    oneShot.addTurn(turn('theirs, added meanwhile'));
    expect(session.undo()?.user).toBe('mine, to undo');
    expect(store.read('shared').turns.map((t) => t.user)).toEqual(['first', 'theirs, added meanwhile']);
  });

  it('an undo record written before undo named its turn still drops the last turn (old files)', () => {
    const path = store.pathOf('old');
    const at = (n: number) => `2026-01-01T00:00:0${n}.000Z`;
    store.create('old');
    writeFileSync(
      path,
      [
        { type: 'start', v: 1, name: 'old', created: at(0) },
        { type: 'turn', ...turn('a'), at: at(1) },
        { type: 'turn', ...turn('b'), at: at(2) },
        { type: 'undo', at: at(3) },
      ].map((record) => JSON.stringify(record)).join('\n') + '\n',
      { flag: 'w' },
    );
    expect(store.read('old').turns.map((t) => t.user)).toEqual(['a']);
    expect(readFileSync(path, 'utf8')).not.toContain('"id":');
  });
});
