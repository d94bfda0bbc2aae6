/**
 * Compaction, the pure part (src/conversations/compaction.ts): what /compact N summarises and
 * keeps, the summary request, the messages sent afterwards, the record kept in the log, and how
 * replaying the log with the existing replay() and toMessages() gives the conversation as it
 * stands: a /rewind past a compaction undoes it.
 */
import { describe, expect, it } from 'vitest';
import { compactedMessages, compactRecord, DEFAULT_KEEP, planCompaction, summaryNote, summaryRequest, SUMMARY_INSTRUCTION } from '../../src/conversations/compaction.js';
import { compactRecordOf, onCompactRecord, onUndo, type Compaction, type CompactRecord } from '../../src/conversations/compaction-record.js';
import { replay, toMessages, type ConversationRecord, type Turn } from '../../src/conversations/model.js';

const at = '2026-11-28T10:00:00.000Z';
const turn = (n: number, extra: Partial<Turn> = {}): Turn => ({ id: `t${n}`, user: `question ${n}`, assistant: `answer ${n}`, at, ...extra });
const turns = (count: number): Turn[] => Array.from({ length: count }, (_, i) => turn(i + 1));

describe('planCompaction', () => {
  it('summarises all but the last N turns (2 by default)', () => {
    const plan = planCompaction(turns(5))!;
    expect(DEFAULT_KEEP).toBe(2);
    expect(plan.summarise.map((t) => t.id)).toEqual(['t1', 't2', 't3']);
    expect(plan.kept.map((t) => t.id)).toEqual(['t4', 't5']);
    expect(plan.through).toBe(3);
    expect(plan.previous).toBeUndefined();
  });

  it('N = 0 summarises every turn; N at or over the turns leaves nothing to do', () => {
    expect(planCompaction(turns(3), 0)!.summarise).toHaveLength(3);
    expect(planCompaction(turns(2), 2)).toBeUndefined();
    expect(planCompaction(turns(2), 5)).toBeUndefined();
    expect(planCompaction([], 0)).toBeUndefined();
  });

  it('after a compaction: only the turns since its summary, which the new one takes in', () => {
    const active: Compaction = { summary: 'S1', through: 3, kept: 2, at };
    const plan = planCompaction(turns(7), 2, active)!;
    expect(plan.previous).toBe(active);
    expect(plan.summarise.map((t) => t.id)).toEqual(['t4', 't5']);
    expect(plan.through).toBe(5);
    // Nothing new since it: turns 4 and 5 are the ones it kept.
    expect(planCompaction(turns(5), 2, active)).toBeUndefined();
  });

  it('N must be a whole number of turns', () => {
    expect(() => planCompaction(turns(3), -1)).toThrow(RangeError);
    expect(() => planCompaction(turns(3), 1.5)).toThrow(RangeError);
  });
});

describe('summaryRequest', () => {
  it('the instruction, then the turns to summarise as one transcript (an interrupted reply marked, an empty one left out)', () => {
    const plan = planCompaction([turn(1), turn(2, { assistant: 'half an ans', interrupted: true }), turn(3, { assistant: '' }), turn(4), turn(5)])!;
    expect(summaryRequest(plan)).toEqual([
      { role: 'system', content: SUMMARY_INSTRUCTION },
      {
        role: 'user',
        content: 'Summarise this conversation:\n\nUser:\nquestion 1\n\nAssistant:\nanswer 1\n\nUser:\nquestion 2\n\nAssistant (cut short):\nhalf an ans\n\nUser:\nquestion 3',
      },
    ]);
  });

  it('the summary in force comes first', () => {
    const plan = planCompaction(turns(6), 2, { summary: 'They spoke of boats.', through: 3, kept: 2, at })!;
    expect(summaryRequest(plan)[1]!.content).toBe('Summarise this conversation:\n\nSummary of the conversation before these turns:\nThey spoke of boats.\n\nUser:\nquestion 4\n\nAssistant:\nanswer 4');
  });
  it("a message's images are named in the transcript (never their bytes), so the summary can say what was shown", () => {
    const withImage: Turn = { user: 'what is this?', images: [{ name: 'barn.png', sha256: 'a'.repeat(64), ext: 'png', bytes: 10 }, { name: 'https://example.com/x.png', url: 'https://example.com/x.png' }], assistant: 'a barn', at };
    const plan = planCompaction([withImage, ...turns(2)], 2)!;
    expect(summaryRequest(plan)[1]!.content).toBe('Summarise this conversation:\n\nUser:\nwhat is this?\n[image barn.png]\n[image https://example.com/x.png]\n\nAssistant:\na barn');
  });
});

describe('the record and the messages after it', () => {
  const plan = planCompaction(turns(5))!;
  const usage = { prompt_tokens: 120, completion_tokens: 40, total_tokens: 160 };
  const record = compactRecord(plan, 'They spoke of boats.', { at, model: 'svc-pro', usage });

  it('the record: summary, how many turns it covers and keeps, when, by which model, at what cost', () => {
    expect(record).toEqual({ type: 'compact', summary: 'They spoke of boats.', through: 3, kept: 2, at, model: 'svc-pro', usage });
    expect(compactRecordOf(JSON.parse(JSON.stringify(record)) as Record<string, unknown>)).toEqual(record);
    expect(compactRecord(plan, 'S', { at })).toEqual({ type: 'compact', summary: 'S', through: 3, kept: 2, at });
  });

  it.each([
    [{ type: 'compact', summary: 5, through: 3, kept: 2, at }],
    [{ type: 'compact', summary: 'S', through: 0, kept: 2, at }],
    [{ type: 'compact', summary: 'S', through: 3, kept: -1, at }],
    [{ type: 'compact', summary: 'S', through: 3, kept: 2 }],
    [{ type: 'compact', summary: 'S', through: 3, kept: 2, at, model: 7 }],
    [{ type: 'compact', summary: 'S', through: 3, kept: 2, at, usage: { prompt_tokens: 'many' } }],
    [{ type: 'turn', summary: 'S', through: 3, kept: 2, at }],
  ])('a line that is not a compact record (%j) is not read as one', (value) => {
    expect(compactRecordOf(value)).toBeUndefined();
  });

  it('one system message (the system prompt, then the summary), then the kept turns as toMessages makes them', () => {
    const messages = compactedMessages({ system: 'Be brief.', turns: turns(5) }, record);
    expect(messages).toEqual([
      { role: 'system', content: `Be brief.\n\n${summaryNote(record)}` },
      ...toMessages({ system: undefined, turns: turns(5).slice(3) }),
    ]);
    expect(summaryNote(record)).toBe('Summary of the earlier conversation (its first 3 turns, summarised to save room):\nThey spoke of boats.');
  });

  it('without a system prompt, the summary is the system message; without a compaction, toMessages', () => {
    expect(compactedMessages({ system: undefined, turns: turns(5) }, record)[0]).toEqual({ role: 'system', content: summaryNote(record) });
    expect(compactedMessages({ system: 'Be brief.', turns: turns(5) }, undefined)).toEqual(toMessages({ system: 'Be brief.', turns: turns(5) }));
  });
});

/**
 * How replay() will carry compactions (the wiring left to do in model.ts): a compact record goes
 * on the stack; an undo drops the compactions made while its turn was there. The turn an undo
 * removed is found here by replaying the log up to it and just after, with replay() itself.
 */
function replayWithCompactions(records: ReadonlyArray<ConversationRecord | CompactRecord>) {
  let stack: Compaction[] = [];
  const plain: ConversationRecord[] = [];
  for (const record of records) {
    if (record.type === 'compact') {
      stack = onCompactRecord(stack, record);
      continue;
    }
    const before = replay('c', plain).turns;
    plain.push(record);
    if (record.type === 'undo') {
      const after = replay('c', plain).turns;
      const index = before.findIndex((t, i) => after[i] !== undefined ? after[i]!.id !== t.id : true);
      if (index !== -1 && after.length < before.length) stack = onUndo(stack, index);
    }
  }
  const conversation = replay('c', plain);
  return { conversation, active: stack.at(-1), messages: compactedMessages(conversation, stack.at(-1)) };
}

describe('replaying a log with compactions', () => {
  const start: ConversationRecord = { type: 'start', v: 1, name: 'c', created: at };
  const turnRecord = (n: number): ConversationRecord => ({ type: 'turn', ...turn(n) });
  const undo = (n: number): ConversationRecord => ({ type: 'undo', at, turn: `t${n}` });
  const first = (): CompactRecord => compactRecord(planCompaction(turns(5))!, 'S1', { at });

  it('every turn stays in the conversation; the messages are the summary and the turns after it', () => {
    const { conversation, active, messages } = replayWithCompactions([start, ...[1, 2, 3, 4, 5].map(turnRecord), first(), turnRecord(6)]);
    expect(conversation.turns.map((t) => t.id)).toEqual(['t1', 't2', 't3', 't4', 't5', 't6']);
    expect(active?.summary).toBe('S1');
    expect(messages.map((m) => m.content)).toEqual([summaryNote(first()), 'question 4', 'answer 4', 'question 5', 'answer 5', 'question 6', 'answer 6']);
  });

  it('undoing a turn added after the compaction keeps it', () => {
    const { active, messages } = replayWithCompactions([start, ...[1, 2, 3, 4, 5].map(turnRecord), first(), turnRecord(6), undo(6)]);
    expect(active?.summary).toBe('S1');
    expect(messages).toHaveLength(5);
  });

  it('undoing the turns it kept leaves the compaction in force; a /rewind past it (a turn it summarised) undoes it: the whole history is sent again', () => {
    const kept = replayWithCompactions([start, ...[1, 2, 3, 4, 5].map(turnRecord), first(), turnRecord(6), undo(6), undo(5), undo(4)]);
    expect(kept.active?.summary).toBe('S1');
    expect(kept.messages.map((m) => m.content)).toEqual([summaryNote(first())]);
    const { conversation, active, messages } = replayWithCompactions([start, ...[1, 2, 3, 4, 5].map(turnRecord), first(), turnRecord(6), undo(6), undo(5), undo(4), undo(3)]);
    expect(active).toBeUndefined();
    expect(messages).toEqual(toMessages(conversation));
    expect(conversation.turns).toHaveLength(2);
  });

  it('a second compaction takes in the first; rewinding past it alone brings the first back', () => {
    const second = compactRecord(planCompaction(turns(7), 2, first())!, 'S2', { at });
    expect(second).toMatchObject({ through: 5, kept: 2 });
    const log = [start, ...[1, 2, 3, 4, 5].map(turnRecord), first(), turnRecord(6), turnRecord(7), second];
    expect(replayWithCompactions(log).messages.map((m) => m.content)).toEqual([summaryNote(second), 'question 6', 'answer 6', 'question 7', 'answer 7']);
    expect(replayWithCompactions([...log, undo(7), undo(6)]).active?.summary).toBe('S2');
    const rewound = replayWithCompactions([...log, undo(7), undo(6), undo(5)]);
    expect(rewound.active?.summary).toBe('S1');
    expect(rewound.messages.map((m) => m.content)).toEqual([summaryNote(first()), 'question 4', 'answer 4']);
  });

  it('onUndo leaves the stack as it was for a turn no compaction summarised, kept ones included', () => {
    const stack: Compaction[] = [{ summary: 'S1', through: 3, kept: 2, at }];
    expect(onUndo(stack, 5)).toEqual(stack);
    expect(onUndo(stack, 3)).toEqual(stack);
    expect(onUndo(stack, 2)).toEqual([]);
  });
});
