/**
 * The whole log of a conversation for `svc sessions show --all` (issue 24, item 6): every turn in
 * the order it was added, those an undo dropped marked, by the same rule replay uses (the turn an
 * undo names, else the last one kept), so --all never disagrees with what the conversation holds.
 */
import { describe, expect, it } from 'vitest';
import { replay, type ConversationRecord } from '../../src/conversations/model.js';
import { logTimeline } from '../../src/conversations/timeline.js';

const turn = (user: string, id?: string): ConversationRecord => ({ type: 'turn', ...(id ? { id } : {}), user, assistant: `re ${user}`, at: '2025-01-01T00:00:00.000Z' });
const undo = (id?: string): ConversationRecord => ({ type: 'undo', at: '2025-01-01T00:01:00.000Z', ...(id ? { turn: id } : {}) });

function shown(records: ConversationRecord[]): string[] {
  return logTimeline(records).map((entry) => (entry.kind === 'turn' ? `${entry.turn.user}${entry.dropped ? ' (dropped)' : ''}` : entry.kind === 'image' ? `image ${entry.image.prompt}` : `compact ${entry.compaction.summary}${entry.undone ? ' (undone)' : ''}`));
}

describe('logTimeline', () => {
  it('marks the turn an undo names, even when another turn came after it (two writers)', () => {
    const records = [turn('a', 'A'), turn('b', 'B'), turn('c', 'C'), undo('B')];
    expect(shown(records)).toEqual(['a', 'b (dropped)', 'c']);
    expect(replay('x', records).turns.map((t) => t.user)).toEqual(['a', 'c']);
  });

  it('an undo without a turn id (older files) drops the last turn still kept; a retry shows the dropped turn, then its replacement', () => {
    const records = [turn('a'), turn('b'), undo(), turn('b again'), turn('c'), undo(), undo()];
    expect(shown(records)).toEqual(['a', 'b (dropped)', 'b again (dropped)', 'c (dropped)']);
    expect(replay('x', records).turns.map((t) => t.user)).toEqual(['a']);
  });

  it('keeps images where they were made, and an undo naming no kept turn drops nothing', () => {
    const records: ConversationRecord[] = [turn('a', 'A'), { type: 'image', prompt: 'fox', options: {}, path: '/tmp/fox.png', at: '2025-01-01T00:00:30.000Z' }, turn('b', 'B'), undo('Z')];
    expect(shown(records)).toEqual(['a', 'image fox', 'b']);
  });
});
