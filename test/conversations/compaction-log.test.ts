/**
 * Compaction in the log (conversations/compaction-record.ts, model.ts replay, session.ts): a
 * compact record written by the session and read back by the store gives the same conversation;
 * what is sent after it is its summary and the later turns (their images too); an undo past it
 * takes it back; its tokens count as a reply's; a damaged compact line costs that line; a file
 * from before compaction replays as it did; a fork and `sessions show --all` keep it.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compactedMessages, compactRecord, planCompaction, summaryNote } from '../../src/conversations/compaction.js';
import { forkRecords } from '../../src/conversations/fork.js';
import { replay, toMessages, type ConversationRecord } from '../../src/conversations/model.js';
import { ConversationSession } from '../../src/conversations/session.js';
import { ConversationStore } from '../../src/conversations/store.js';
import { logTimeline } from '../../src/conversations/timeline.js';

let home: string;
let warnings: string[];
let store: ConversationStore;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'svc-compact-log-'));
  warnings = [];
  store = new ConversationStore({ HOME: home, XDG_DATA_HOME: join(home, 'data') }, { warn: (line) => warnings.push(line) });
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const usage = { prompt_tokens: 300, completion_tokens: 40, total_tokens: 340 };
const replyUsage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

/** A saved conversation "talk" of `count` turns Q1/A1..., each costing replyUsage on svc-pro. */
function talk(count: number): ConversationSession {
  const session = ConversationSession.fresh(store, 'talk');
  for (let n = 1; n <= count; n++) session.addTurn({ user: `Q${n}`, assistant: `A${n}`, model: 'svc-pro', usage: replyUsage });
  return session;
}

/** Compact `session` as /compact does, with `summary` written by svc-mini. */
function compact(session: ConversationSession, summary: string, keep = 2): void {
  session.addCompaction(compactRecord(planCompaction(session.turns, keep, session.activeCompaction)!, summary, { at: new Date().toISOString(), model: 'svc-mini', usage }));
}

const contents = (session: ConversationSession): unknown[] => session.messages().map((message) => message.content);

describe('the session and the log', () => {
  it('after a compaction the session sends one system message (its prompt, then the summary) and the later turns; read back, the same', () => {
    const session = talk(5);
    session.setSystem('Be brief.');
    compact(session, 'They spoke of boats.');
    session.addTurn({ user: 'Q6', assistant: 'A6' });
    const expected = [`Be brief.\n\n${summaryNote(session.activeCompaction!)}`, 'Q4', 'A4', 'Q5', 'A5', 'Q6', 'A6'];
    expect(contents(session)).toEqual(expected);
    const again = ConversationSession.resume(store, 'talk', true);
    expect(again.activeCompaction).toMatchObject({ summary: 'They spoke of boats.', through: 3, kept: 2, model: 'svc-mini', usage });
    expect(contents(again)).toEqual(expected);
    // Every turn stays: the summary stands for the first three in what is sent, nothing more.
    expect(again.turns.map((turn) => turn.user)).toEqual(['Q1', 'Q2', 'Q3', 'Q4', 'Q5', 'Q6']);
  });

  it("the summary's tokens count in the conversation's, under the model that wrote it, in memory and read back", () => {
    const session = talk(4);
    compact(session, 'S');
    const expected = { prompt_tokens: 4 * 10 + 300, completion_tokens: 4 * 5 + 40, total_tokens: 4 * 15 + 340 };
    expect(session.spent).toEqual(expected);
    expect(session.spentByModel['svc-mini']).toEqual(usage);
    const read = store.read('talk');
    expect(read.spent).toEqual(expected);
    expect(read.spentByModel['svc-mini']).toEqual(usage);
  });

  it('an undo of a turn added after the compaction, or of one it kept, keeps it; an undo past it (a turn it summarised) takes it back, in memory and read back', () => {
    const session = talk(4);
    compact(session, 'S');
    session.addTurn({ user: 'Q5', assistant: 'A5' });
    for (const _ of [5, 4, 3]) session.undo();
    expect(session.activeCompaction?.summary).toBe('S');
    expect(ConversationSession.resume(store, 'talk', true).activeCompaction?.summary).toBe('S');
    session.undo();
    expect(session.activeCompaction).toBeUndefined();
    expect(contents(session)).toEqual(['Q1', 'A1']);
    const read = store.read('talk');
    expect(read.compactions).toEqual([]);
    expect(toMessages(read)).toEqual(session.messages());
  });

  it('a second compaction takes in the first; an undo past the second alone brings the first back', () => {
    const session = talk(4);
    compact(session, 'S1');
    session.addTurn({ user: 'Q5', assistant: 'A5' });
    session.addTurn({ user: 'Q6', assistant: 'A6' });
    compact(session, 'S2');
    expect(session.activeCompaction).toMatchObject({ summary: 'S2', through: 4 });
    session.undo();
    session.undo();
    expect(session.activeCompaction?.summary).toBe('S2');
    session.undo();
    expect(session.activeCompaction?.summary).toBe('S1');
    expect(ConversationSession.resume(store, 'talk', true).activeCompaction?.summary).toBe('S1');
  });

  it('an image of a turn after the compaction is still sent, read back from the store', () => {
    const session = ConversationSession.fresh(store, 'pics');
    for (let n = 1; n <= 3; n++) session.addTurn({ user: `Q${n}`, assistant: `A${n}` });
    compact(session, 'S', 1);
    const bytes = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    session.rememberImage(sha256, 'png', bytes);
    session.addTurn({ user: 'what is this?', assistant: 'a dot', images: [{ name: 'dot.png', sha256, ext: 'png', bytes: bytes.length }] });
    const sent = ConversationSession.resume(store, 'pics', true).messages();
    expect(sent.at(-2)).toEqual({ role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${bytes.toString('base64')}` } }] });
    expect(sent[0]!.content).toContain('S');
  });
});

describe('reading files', () => {
  it('a file written before compaction existed replays as before: no compactions, every turn sent', () => {
    talk(3);
    const read = store.read('talk');
    expect(read.compactions).toEqual([]);
    expect(ConversationSession.resume(store, 'talk', true).messages()).toEqual(toMessages(read));
  });

  it('a damaged compact line is skipped and named like any bad line; the rest is kept', () => {
    talk(4);
    appendFileSync(store.pathOf('talk'), `${JSON.stringify({ type: 'compact', summary: 'S', through: 'three', kept: 2, at: '2026-11-28T10:00:00.000Z' })}\n`);
    const read = store.read('talk');
    expect(read.compactions).toEqual([]);
    expect(read.turns).toHaveLength(4);
    expect(warnings).toEqual([`svc: ${store.pathOf('talk')}: line 6 skipped (not a conversation record); the rest is kept`]);
  });
});

describe('forks and the whole log', () => {
  it('a fork copies the compaction in force after the turn it was made after; a fork from before that turn has none', () => {
    const session = talk(4);
    compact(session, 'S');
    session.addTurn({ user: 'Q5', assistant: 'A5' });
    const whole = forkRecords(session, 'copy');
    expect(whole.map((record) => (record.type === 'turn' ? record.user : record.type))).toEqual(['start', 'Q1', 'Q2', 'Q3', 'Q4', 'compact', 'Q5']);
    expect(replay('copy', whole).compactions).toEqual(session.compactions);
    expect(forkRecords(session, 'at', 4).at(-1)?.type).toBe('compact');
    // Among the turns it kept (as after an /undo of one): still in force, at the end of the fork.
    const amongKept = forkRecords(session, 'kept', 3);
    expect(amongKept.map((record) => (record.type === 'turn' ? record.user : record.type))).toEqual(['start', 'Q1', 'Q2', 'Q3', 'compact']);
    expect(replay('kept', amongKept).compactions).toEqual(session.compactions);
    // Before the turns it summarised were all there: none.
    expect(forkRecords(session, 'early', 1).some((record) => record.type === 'compact')).toBe(false);
  });

  it('a fork after an /undo of a kept turn sends what the original sends', () => {
    const session = talk(5);
    compact(session, 'S');
    session.undo();
    const fork = replay('fk', forkRecords(session, 'fk'));
    expect(fork.compactions).toHaveLength(1);
    expect(compactedMessages(fork, fork.compactions.at(-1))).toEqual(session.messages());
  });

  it('logTimeline shows each compaction where it was made, marked undone when an undo went past it', () => {
    const session = talk(4);
    compact(session, 'S');
    const view = (): string[] =>
      logTimeline(store.records('talk')).map((entry) => (entry.kind === 'turn' ? `${entry.turn.user}${entry.dropped ? ' dropped' : ''}` : entry.kind === 'compact' ? `compact ${entry.compaction.summary}${entry.undone ? ' undone' : ''}` : 'image'));
    session.undo();
    expect(view()).toEqual(['Q1', 'Q2', 'Q3', 'Q4 dropped', 'compact S']);
    session.undo();
    session.undo();
    expect(view()).toEqual(['Q1', 'Q2 dropped', 'Q3 dropped', 'Q4 dropped', 'compact S undone']);
  });

  it('records a compact record as written: the fields, not more', () => {
    const session = talk(3);
    compact(session, 'S', 1);
    const records: ConversationRecord[] = store.records('talk');
    expect(records.at(-1)).toEqual({ type: 'compact', summary: 'S', through: 2, kept: 1, at: expect.any(String), model: 'svc-mini', usage });
  });
});
