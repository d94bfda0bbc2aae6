/**
 * Forking a conversation: a new conversation that starts as a copy of another one, up to and
 * including a turn, to go on from there differently. The copy is a new file; the conversation it
 * came from is only read. The fork holds what the conversation holds at that point (system
 * message, model chosen with /model, the turns kept and the images made among them), not the
 * turns undone before it: those stay in the original's log. A compaction in force goes too, after
 * the turn it was made after, when the fork reaches that turn: the fork sends what the original does.
 */
import type { Compaction } from './compaction-record.js';
import type { Conversation, ConversationRecord } from './model.js';
import { isConversationName, newConversationName } from '../core/names.js';

/** What a fork copies from a conversation. */
export interface ForkSource {
  system: Conversation['system'];
  model: Conversation['model'];
  turns: readonly Conversation['turns'][number][];
  images: Conversation['images'];
  /** The compactions in force, oldest first (absent: none). */
  compactions?: readonly Compaction[];
}

/**
 * The records of the fork `name` of `source`, with its first `upTo` turns (all by default), as
 * one log: a start record (now: the fork starts now), the system message and model, then the
 * turns and images in order, each with its own time.
 */
export function forkRecords(source: ForkSource, name: string, upTo = source.turns.length, now = new Date()): ConversationRecord[] {
  const at = now.toISOString();
  const records: ConversationRecord[] = [{ type: 'start', v: 1, name, created: at }];
  if (source.system !== undefined) records.push({ type: 'system', content: source.system, at });
  if (source.model !== undefined) records.push({ type: 'model', model: source.model, at });
  const images = source.images.filter((image) => image.afterTurn <= upTo);
  // The compactions in force, as replay keeps them: each while the turns it summarised are there.
  // Made when the conversation had `through + kept` turns, each comes after the last of them,
  // or at the end when the fork stops among the turns it kept.
  const compactions = (source.compactions ?? []).filter((compaction) => compaction.through <= upTo);
  const compactionsAfter = (count: number): void => {
    while (compactions.length > 0 && Math.min(compactions[0]!.through + compactions[0]!.kept, upTo) <= count) records.push({ type: 'compact', ...compactions.shift()! });
  };
  source.turns.slice(0, upTo).forEach((turn, index) => {
    compactionsAfter(index);
    while (images.length > 0 && images[0]!.afterTurn <= index) {
      const { afterTurn: _afterTurn, ...image } = images.shift()!;
      records.push({ type: 'image', ...image });
    }
    records.push({ type: 'turn', ...turn });
  });
  compactionsAfter(upTo);
  for (const { afterTurn: _afterTurn, ...image } of images) records.push({ type: 'image', ...image });
  return records;
}

/**
 * A name for a fork of `name` that nothing has yet: NAME-fork, then NAME-fork-2, -3…; a fresh
 * dated name when those would be too long or are all taken.
 */
export function forkName(name: string, isFree: (candidate: string) => boolean): string {
  for (let n = 1; n <= 99; n++) {
    const candidate = `${name}-fork${n === 1 ? '' : `-${n}`}`;
    if (!isConversationName(candidate)) break;
    if (isFree(candidate)) return candidate;
  }
  return newConversationName();
}
