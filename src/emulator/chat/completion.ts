/**
 * Turns the generated text into the completion the client sees: `stop` and `max_tokens` applied,
 * the finish reason chosen, usage counted, and the response objects shaped (service-api.md 2.2
 * and OpenAI's `chat.completion.chunk` for streaming).
 */
import { randomBytes } from 'node:crypto';
import { countPromptTokens, tokenize } from '../tokenizer.js';
import type { ChatRequest } from './request.js';

/** Why generation ended: `stop` (naturally or at a stop string) or `length` (max_tokens). */
export type FinishReason = 'stop' | 'length';

/** Token counts (service-api.md 2.4). */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** The reply as delivered: its tokens (joined, the content), finish reason and usage. */
export interface Completion {
  id: string;
  created: number;
  model: string;
  tokens: string[];
  content: string;
  finishReason: FinishReason;
  usage: Usage;
}

/**
 * Applies `stop` then `max_tokens` to `text`. The reply is cut before the earliest occurrence of
 * any stop string (which is itself left out), then after `maxTokens` tokens; only the second cut
 * reports `length`, as OpenAI does.
 */
export function limitReply(text: string, stop: readonly string[], maxTokens: number | undefined): { tokens: string[]; finishReason: FinishReason } {
  const cuts = stop.map((s) => text.indexOf(s)).filter((i) => i >= 0);
  const stopped = cuts.length > 0 ? text.slice(0, Math.min(...cuts)) : text;
  const tokens = tokenize(stopped);
  if (maxTokens !== undefined && tokens.length > maxTokens) {
    return { tokens: tokens.slice(0, maxTokens), finishReason: 'length' };
  }
  return { tokens, finishReason: 'stop' };
}

/** Builds the completion for a validated request from its generated reply text. */
export function buildCompletion(request: ChatRequest, text: string): Completion {
  const { tokens, finishReason } = limitReply(text, request.stop, request.maxTokens);
  const promptTokens = countPromptTokens(request.messages);
  return {
    id: `chatcmpl-${randomBytes(12).toString('hex')}`,
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    tokens,
    content: tokens.join(''),
    finishReason,
    usage: { prompt_tokens: promptTokens, completion_tokens: tokens.length, total_tokens: promptTokens + tokens.length },
  };
}

/** The non-streaming response body (service-api.md 2.2). */
export function completionBody(c: Completion): object {
  return {
    id: c.id,
    object: 'chat.completion',
    created: c.created,
    model: c.model,
    choices: [{ index: 0, message: { role: 'assistant', content: c.content }, finish_reason: c.finishReason }],
    usage: c.usage,
  };
}

/**
 * The streamed chunks, in order: the role, one per token, the finish reason, and — only with
 * `include_usage` — a usage chunk with no choices. With `include_usage` every other chunk carries
 * `usage: null`, as OpenAI's do.
 */
export function completionChunks(c: Completion, includeUsage: boolean): object[] {
  const chunk = (choices: object[], usage?: Usage): object => ({
    id: c.id,
    object: 'chat.completion.chunk',
    created: c.created,
    model: c.model,
    choices,
    ...(includeUsage ? { usage: usage ?? null } : {}),
  });
  const choice = (delta: object, finishReason: FinishReason | null = null): object => ({ index: 0, delta, finish_reason: finishReason });
  return [
    chunk([choice({ role: 'assistant', content: '' })]),
    ...c.tokens.map((token) => chunk([choice({ content: token })])),
    chunk([choice({}, c.finishReason)]),
    ...(includeUsage ? [chunk([], c.usage)] : []),
  ];
}
