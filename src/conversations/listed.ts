/**
 * What a listing shows of a saved conversation (`svc sessions list`, `svc chat --list`): small
 * enough to keep for every file in the listing cache (listing-cache.ts), so a listing of
 * thousands need not read them all again.
 */
import type { Usage } from '../api/chat-types.js';
import { addUsage, cutLine, noUsage, type Conversation } from './model.js';

/** The longest first line a listing shows (--json): what is kept of it is one character more, to know it was cut. */
export const LONGEST_OPENING = 200;

export interface ListedConversation {
  name: string;
  /** When it last changed (its last record's time, else the file's). */
  updated: string;
  turns: number;
  /** The first line of the first question, at most LONGEST_OPENING + 1 characters of it: see `openingIn`. */
  opening: string;
  /** Every model a turn was answered by (for --model). */
  models: string[];
  /**
   * Tokens of every reply, undone and retried ones included, per model, as [prompt, completion,
   * total] (for --usage: what a cost is made of). Kept as the cache keeps them: a listing without
   * --usage makes no objects of them (usageByModel does).
   */
  tokensByModel: Record<string, Tokens>;
}

export type Tokens = [prompt: number, completion: number, total: number];

/** The models `conversation`'s turns were answered by, each once. */
export function modelsOf(conversation: Conversation): string[] {
  const models = new Set<string>();
  for (const turn of conversation.turns) if (turn.model !== undefined) models.add(turn.model);
  return [...models];
}

export function listedOf(name: string, updated: string, conversation: Conversation): ListedConversation {
  const question = conversation.turns[0]?.user ?? '';
  return {
    name,
    updated,
    turns: conversation.turns.length,
    opening: (question.trim().split('\n')[0] ?? '').slice(0, LONGEST_OPENING + 1),
    models: modelsOf(conversation),
    tokensByModel: Object.fromEntries(Object.entries(conversation.spentByModel).map(([model, usage]) => [model, [usage.prompt_tokens, usage.completion_tokens, usage.total_tokens]])),
  };
}

/** The conversation's first line cut to `width` (at most LONGEST_OPENING), as model.ts firstLine cuts it. */
export function openingIn(listed: ListedConversation, width: number): string {
  return cutLine(listed.opening, Math.min(width, LONGEST_OPENING));
}

/** Every reply's tokens, per model (as Conversation.spentByModel). */
export function usageByModel(listed: ListedConversation): Record<string, Usage> {
  return Object.fromEntries(
    Object.entries(listed.tokensByModel).map(([model, [prompt, completion, total]]) => [model, { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total }]),
  );
}

/** Every reply's tokens together. */
export function spentOf(listed: ListedConversation): Usage {
  const total = noUsage();
  for (const usage of Object.values(usageByModel(listed))) addUsage(total, usage);
  return total;
}
