/**
 * A compaction as the log keeps it (`type: "compact"`), read back field by field, and how
 * replaying the log carries it: a stack, the last one in force. Apart from compaction.ts, which
 * builds on the conversation model, because the model's replay needs it.
 */
import type { Usage } from '../api/chat-types.js';
import { isObject, type JsonObject } from '../core/json.js';

/** A compaction as the log keeps it. */
export interface Compaction {
  /** The summary the model wrote. */
  summary: string;
  /** How many turns, from the first, the summary covers (those before it included). */
  through: number;
  /** The turns left as they were (`/compact N`): the conversation had `through + kept` turns when it was made. */
  kept: number;
  at: string;
  /** The model that wrote the summary. */
  model?: string;
  /** What the summary request cost: counted in the conversation's tokens, as a reply's are. */
  usage?: Usage;
}

export type CompactRecord = { type: 'compact' } & Compaction;

/** Replay: a compact record puts its compaction on top of the stack. */
export function onCompactRecord(stack: readonly Compaction[], record: CompactRecord): Compaction[] {
  const { type: _type, ...compaction } = record;
  return [...stack, compaction];
}

/**
 * Replay: the turn at `index` was undone. Every compaction that summarised it (its first
 * `through` turns include it) is dropped: the conversation is back before it. Undoing a turn a
 * compaction kept as it was (a /retry of the last reply) leaves the summary in force, or the
 * conversation would outgrow the window again at once.
 */
export function onUndo(stack: readonly Compaction[], index: number): Compaction[] {
  let end = stack.length;
  while (end > 0 && index < stack[end - 1]!.through) end -= 1;
  return end === stack.length ? [...stack] : stack.slice(0, end);
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** The compact record in `value` (a line of the log), checked field by field as records.ts checks the others; undefined when it is not one. */
export function compactRecordOf(value: JsonObject): CompactRecord | undefined {
  const { summary, through, kept, at, model, usage } = value;
  if (value.type !== 'compact' || typeof summary !== 'string' || typeof at !== 'string' || !isCount(kept) || !isCount(through) || through < 1) return undefined;
  if (model !== undefined && typeof model !== 'string') return undefined;
  let counted: Usage | undefined;
  if (usage !== undefined) {
    if (!isObject(usage) || !isCount(usage.prompt_tokens) || !isCount(usage.completion_tokens) || !isCount(usage.total_tokens)) return undefined;
    counted = { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens, total_tokens: usage.total_tokens };
  }
  return { type: 'compact', summary, through, kept, at, ...(model === undefined ? {} : { model }), ...(counted ? { usage: counted } : {}) };
}
