/**
 * What a listing shows of a saved conversation (`svc sessions list`, `svc chat --list`): small
 * enough to keep for every file in the listing cache (listing-cache.ts), so a listing of
 * thousands need not read them all again.
 */
import type { Usage } from '../api/chat-types.js';
import { cutLine, leadingLine, perModel, type Conversation } from './model.js';

/** The longest first line a listing shows (--json): what is kept of it is one character more, to know it was cut. */
export const LONGEST_OPENING = 200;

/** Tokens as [prompt, completion, total]: how the cache keeps them, and a listing without --usage never unpacks them. */
export type Tokens = [prompt: number, completion: number, total: number];

export interface ListedConversation {
  name: string;
  /** When it last changed (its last record's time, else the file's). */
  updated: string;
  turns: number;
  /** The first line of the first question, at most LONGEST_OPENING + 1 characters of it: see `openingIn`. */
  opening: string;
  /** Every model a turn was answered by (for --model). */
  models: string[];
  /** Tokens for --usage: always when the file was read, from the cache only when asked for. */
  tokens?: SpentTokens;
}

export interface SpentTokens {
  /** Every reply's, undone and retried ones included … */
  spent: Tokens;
  /** … and the same per model: what a cost is made of. */
  byModel: Record<string, Tokens>;
}

/** The models `conversation`'s turns were answered by, each once. */
export function modelsOf(conversation: Conversation): string[] {
  const models = new Set<string>();
  for (const turn of conversation.turns) if (turn.model !== undefined) models.add(turn.model);
  return [...models];
}

const tokensOf = (usage: Usage): Tokens => [usage.prompt_tokens, usage.completion_tokens, usage.total_tokens];
const usageOf = ([prompt, completion, total]: Tokens): Usage => ({ prompt_tokens: prompt, completion_tokens: completion, total_tokens: total });

export function listedOf(name: string, updated: string, conversation: Conversation): ListedConversation & { tokens: SpentTokens } {
  const question = conversation.turns[0]?.user ?? '';
  const tokensByModel = perModel<Tokens>();
  for (const [model, usage] of Object.entries(conversation.spentByModel)) tokensByModel[model] = tokensOf(usage);
  return {
    name,
    updated,
    turns: conversation.turns.length,
    opening: leadingLine(question).slice(0, LONGEST_OPENING + 1),
    models: modelsOf(conversation),
    tokens: { spent: tokensOf(conversation.spent), byModel: tokensByModel },
  };
}

/** The conversation's first line cut to `width` (at most LONGEST_OPENING), as model.ts firstLineOf cuts a line. */
export function openingIn(listed: ListedConversation, width: number): string {
  return cutLine(listed.opening, Math.min(width, LONGEST_OPENING));
}

/** The tokens of a conversation listed with them (listConversations' `withTokens`). */
export function tokensIn(listed: ListedConversation): SpentTokens {
  if (!listed.tokens) throw new Error(`${listed.name} was listed without its tokens`);
  return listed.tokens;
}

/** Every reply's tokens together (as Conversation.spent). */
export function spentOf(tokens: SpentTokens): Usage {
  return usageOf(tokens.spent);
}

/** Every reply's tokens, per model (as Conversation.spentByModel). */
export function usageByModel(tokens: SpentTokens): Record<string, Usage> {
  const byModel = perModel<Usage>();
  for (const [model, counts] of Object.entries(tokens.byModel)) byModel[model] = usageOf(counts);
  return byModel;
}
