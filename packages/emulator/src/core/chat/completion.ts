/**
 * Turns the generated text into the completion the client sees: `stop` and `max_tokens` applied,
 * the finish reason chosen, usage counted, and the response objects shaped (docs/service-api.md,
 * "The answer, whole" and "The answer, streamed").
 */
import { randomBytes } from 'node:crypto';
import { countPromptTokens, tokenize } from '../tokenizer.js';
import type { ServiceChatRequest } from './request.js';

/** Why generation ended: `stop` (naturally or at a stop string), `length` (max_tokens), or a tool call. */
export type FinishReason = 'stop' | 'length' | 'tool_calls';

/** A tool call as the reply carries it (extras/openai/tools.ts decides when and makes them). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** The logprobs entry of `token` at `position` in its choice (extras/openai/logprobs.ts). */
export type LogprobOf = (token: string, position: number) => object;

/** Token counts (docs/service-api.md, "The answer, whole"). */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** One choice of the reply: its tokens (joined, the content, or its tool calls' arguments) and why it ended. */
export interface Choice {
  tokens: string[];
  content: string;
  finishReason: FinishReason;
  /** Calls of the request's tools (several when they run in parallel), in place of text. */
  toolCalls?: ReadonlyArray<{ call: ToolCall; tokens: string[] }>;
}

/** The reply as delivered: its choices (`n` of them, one by default) and usage. */
export interface Completion {
  id: string;
  created: number;
  model: string;
  choices: Choice[];
  usage: Usage;
  /** Each token's logprobs entry, when `logprobs` was asked for. */
  logprobs: LogprobOf | undefined;
  /** The tier the answer reports, as OpenAI's answers do (`default` unless another was asked for). */
  serviceTier: string;
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

/**
 * Builds the completion for a validated request from the generated text (or the tool calls) of
 * each choice; `options` are what OpenAI's fields asked of the answer, and the prompt's tokens
 * when more than its messages' text counts (images, tools).
 */
export function buildCompletion(
  request: ServiceChatRequest,
  replies: ReadonlyArray<string | readonly ToolCall[]>,
  options: { logprobs?: LogprobOf | undefined; serviceTier?: string; promptTokens?: number } = {},
): Completion {
  const choices = replies.map((reply): Choice => {
    if (typeof reply !== 'string') {
      const toolCalls = reply.map((call) => ({ call, tokens: tokenize(call.arguments) }));
      return { tokens: toolCalls.flatMap((each) => each.tokens), content: '', finishReason: 'tool_calls', toolCalls };
    }
    const { tokens, finishReason } = limitReply(reply, request.stop, request.maxTokens);
    return { tokens, content: tokens.join(''), finishReason };
  });
  const promptTokens = options.promptTokens ?? countPromptTokens(request.messages);
  const completionTokens = choices.reduce((sum, choice) => sum + choice.tokens.length, 0);
  return {
    id: `chatcmpl-${randomBytes(12).toString('hex')}`,
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices,
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    logprobs: options.logprobs,
    serviceTier: options.serviceTier ?? 'default',
  };
}

/** A choice's logprobs in OpenAI's shape (null unless asked for, and for a tool call). */
function logprobsOf(c: Completion, choice: Choice, from = 0, to = choice.tokens.length): object | null {
  const logprobOf = c.logprobs;
  if (!logprobOf || choice.toolCalls) return null;
  return { content: choice.tokens.slice(from, to).map((token, offset) => logprobOf(token, from + offset)), refusal: null };
}

/**
 * A fixed fingerprint of the "backend": OpenAI sends one with every completion and clients log
 * it; one value, since the emulator's replies depend only on the request.
 */
export const SYSTEM_FINGERPRINT = 'fp_svc_emulator';

/** Usage as OpenAI's current API gives it: the three counts and their details (all zero here). */
function fullUsage(usage: Usage): object {
  return {
    ...usage,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

/** The message of a choice: its text, or (content null) its tool calls, as OpenAI's are. */
function messageOf(choice: Choice): object {
  if (!choice.toolCalls) return { role: 'assistant', content: choice.content, refusal: null };
  const calls = choice.toolCalls.map(({ call }) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }));
  return { role: 'assistant', content: null, refusal: null, tool_calls: calls };
}

/**
 * The non-streaming response body (docs/service-api.md, "The answer, whole"), with every field
 * OpenAI's has (`system_fingerprint`, `logprobs: null`, `refusal: null`, usage details), so client
 * code and SDKs written against OpenAI find what they read.
 */
export function completionBody(c: Completion): object {
  return {
    id: c.id,
    object: 'chat.completion',
    created: c.created,
    model: c.model,
    service_tier: c.serviceTier,
    system_fingerprint: SYSTEM_FINGERPRINT,
    choices: c.choices.map((choice, index) => ({ index, message: messageOf(choice), logprobs: logprobsOf(c, choice), finish_reason: choice.finishReason })),
    usage: fullUsage(c.usage),
  };
}

/**
 * The streamed chunks, each choice's in order and the choices side by side (each chunk names
 * its `index`, as OpenAI's do): the role, one per token, the finish reason; then, only with `include_usage`, a
 * usage chunk with no choices. With `include_usage` every other chunk carries `usage: null`, as
 * OpenAI's do.
 */
export function completionChunks(c: Completion, includeUsage: boolean): object[] {
  const chunk = (choices: object[], usage?: Usage): object => ({
    id: c.id,
    object: 'chat.completion.chunk',
    created: c.created,
    model: c.model,
    service_tier: c.serviceTier,
    system_fingerprint: SYSTEM_FINGERPRINT,
    choices,
    ...(includeUsage ? { usage: usage ? fullUsage(usage) : null } : {}),
  });
  const choice = (index: number, delta: object, finishReason: FinishReason | null = null, logprobs: object | null = null): object => ({ index, delta, logprobs, finish_reason: finishReason });
  const perChoice = c.choices.map((each, index) => {
    const end = chunk([choice(index, {}, each.finishReason)]);
    if (each.toolCalls) {
      // Tool calls stream as OpenAI's do: each call's id and name (the first with the role),
      // then its arguments in pieces, then the next call.
      return [
        ...each.toolCalls.flatMap(({ call, tokens }, k) => [
          chunk([choice(index, { ...(k === 0 ? { role: 'assistant', content: null, refusal: null } : {}), tool_calls: [{ index: k, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] })]),
          ...tokens.map((token) => chunk([choice(index, { tool_calls: [{ index: k, function: { arguments: token } }] })])),
        ]),
        end,
      ];
    }
    const tokens = each.tokens.map((token, at) => chunk([choice(index, { content: token }, null, logprobsOf(c, each, at, at + 1))]));
    return [chunk([choice(index, { role: 'assistant', content: '', refusal: null })]), ...tokens, end];
  });
  return [...interleaved(perChoice), ...(includeUsage ? [chunk([], c.usage)] : [])];
}

/** The chunks of several choices taken in turn, one of each, as OpenAI streams `n` choices side by side. */
function interleaved(lists: readonly object[][]): object[] {
  if (lists.length === 1) return lists[0]!;
  const out: object[] = [];
  const longest = Math.max(...lists.map((list) => list.length));
  for (let at = 0; at < longest; at++) for (const list of lists) if (at < list.length) out.push(list[at]!);
  return out;
}
