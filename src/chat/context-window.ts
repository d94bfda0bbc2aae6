/**
 * The context window: how many tokens a model takes in one request (its prompt and its reply
 * together), where svc learns it, and whether the next request will fit, so svc can say so
 * before sending instead of meeting the server's refusal (api/context-exceeded.ts) after.
 *
 * The window comes from the `contextWindow` setting (per model, then for every model), else
 * from what the server says of its model, else it is unknown and nothing is checked. The size of
 * a request is the service's own count where there is one (the last reply's usage) plus an
 * estimate from the text for what is new.
 */
import type { Usage } from '../api/chat-types.js';
import type { ContentPart } from '../api/content-parts.js';
import { isObject } from '../core/json.js';

/** A window in tokens, and where it came from (for /usage and messages). */
export interface ContextWindow {
  tokens: number;
  source: 'setting' | 'server';
}

export interface ContextWindowSettings {
  /** `contextWindow`: the window of every model of the profile. */
  all?: number | undefined;
  /** `contextWindow.MODEL`: the window of one model, by its id as sent. */
  perModel?: Readonly<Record<string, number>> | undefined;
}

const isTokens = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0;

/**
 * The window of `model`: the setting for that model, else the setting for all, else what the
 * server said (`server`: from {@link windowFromProps} or {@link windowFromModelList}), else
 * undefined (unknown: nothing is checked).
 */
export function contextWindowFor(model: string, settings: ContextWindowSettings, server?: number): ContextWindow | undefined {
  // Own keys only: a model named `constructor` must not find Object.prototype's.
  const own = settings.perModel && Object.hasOwn(settings.perModel, model) ? settings.perModel[model] : undefined;
  if (isTokens(own)) return { tokens: own, source: 'setting' };
  if (isTokens(settings.all)) return { tokens: settings.all, source: 'setting' };
  if (isTokens(server)) return { tokens: server, source: 'server' };
  return undefined;
}

/**
 * llama.cpp's `GET /props`, at the server's root (not under /v1): the base URL without its /v1.
 * `?model=` picks the model when llama-server routes between several (a single-model server
 * ignores it).
 */
export function propsUrl(baseUrl: string, model?: string): string {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '')}/props`;
  url.search = '';
  if (model !== undefined) url.searchParams.set('model', model);
  return url.href;
}

/**
 * The window llama-server runs with, from its `/props` answer: `default_generation_settings.n_ctx`
 * (the context of one slot, which is what a request gets: `-c` divided among `--parallel` slots),
 * else a top-level `n_ctx` (as some builds and llama.cpp-based servers put it).
 */
export function windowFromProps(answer: unknown): number | undefined {
  if (!isObject(answer)) return undefined;
  const settings = answer.default_generation_settings;
  const slot = isObject(settings) ? settings.n_ctx : undefined;
  if (isTokens(slot)) return slot;
  return isTokens(answer.n_ctx) ? answer.n_ctx : undefined;
}

/**
 * The fields a model object (GET /v1/models) gives its window in, first the one to trust: LM
 * Studio's `loaded_context_length` (the window it loaded the model with, which may be less than
 * the model's `max_context_length`); OpenRouter's, Together's and the emulator's
 * `context_length`; vLLM's `max_model_len`; Groq's `context_window`; Mistral's and LM Studio's
 * `max_context_length`. llama-server's `meta.n_ctx_train` is the window the model was trained
 * with, not the one the server runs: its `/props` says that.
 */
const MODEL_FIELDS = ['loaded_context_length', 'context_length', 'max_model_len', 'context_window', 'max_context_length'] as const;

/** The window a model object names, when it names one. */
export function windowFromModelObject(model: unknown): number | undefined {
  if (!isObject(model)) return undefined;
  for (const field of MODEL_FIELDS) if (isTokens(model[field])) return model[field];
  return undefined;
}

/** The window of `model` from a GET /v1/models answer (`data: [{ id, … }]`), when its entry names one. */
export function windowFromModelList(answer: unknown, model: string): number | undefined {
  const data = isObject(answer) ? answer.data : undefined;
  if (!Array.isArray(data)) return undefined;
  return windowFromModelObject(data.find((item: unknown) => isObject(item) && item.id === model));
}

/**
 * An image part counted at a fixed size: what it costs depends on the model, not on the length
 * of its data URL (a 300 KB photo is 400,000 base64 characters, some 100,000 "tokens" by the
 * text rule). OpenAI counts 85 at `detail: low`, and at most 1,445 (85 + 8 tiles of 170) for a
 * picture within the 2,048 pixels svc scales to; vision models served by llama.cpp take a fixed
 * few hundred per image (256 for Gemma 3). The most OpenAI counts is used: for a warning, too
 * high is the safe side.
 */
export const IMAGE_TOKENS = 1445;
export const LOW_DETAIL_IMAGE_TOKENS = 85;

/** Each message's role and separators (OpenAI's count: 3 and 1), and the 3 that prime the reply. */
const PER_MESSAGE = 4;
const PER_REQUEST = 3;

/** A message as the estimate reads it: its content (text or parts), and the calls of a tool loop. */
export interface EstimatedMessage {
  content?: string | null | readonly ContentPart[];
  tool_calls?: ReadonlyArray<{ function: { name: string; arguments: string } }>;
}

/**
 * Whether a UTF-16 unit is of a script written without spaces, where a token is about one
 * character (Chinese, Japanese kana, Korean Hangul, and their punctuation and full-width forms).
 */
function isDenseScript(unit: number): boolean {
  return (unit >= 0x3000 && unit <= 0x30ff) || (unit >= 0x3400 && unit <= 0x4dbf) || (unit >= 0x4e00 && unit <= 0x9fff) || (unit >= 0xac00 && unit <= 0xd7af) || (unit >= 0xff00 && unit <= 0xffef);
}

/**
 * Tokens of `text` by the usual rule, 4 characters a token, which holds for English prose and
 * code with the common tokenizers; except for the scripts where a token is about one character
 * (isDenseScript), counted one each, since 4 a token would miss their size fourfold.
 */
export function estimateTextTokens(text: string): number {
  let dense = 0;
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) >= 0x3000 && isDenseScript(text.charCodeAt(i))) dense += 1;
  return Math.ceil((text.length - dense) / 4) + dense;
}

function contentTokens(content: EstimatedMessage['content']): number {
  if (content === undefined || content === null) return 0;
  if (typeof content === 'string') return estimateTextTokens(content);
  let tokens = 0;
  for (const part of content) {
    tokens += part.type === 'text' ? estimateTextTokens(part.text) : part.image_url.detail === 'low' ? LOW_DETAIL_IMAGE_TOKENS : IMAGE_TOKENS;
  }
  return tokens;
}

/** The estimated tokens of `messages` alone (no request overhead): each message's content, tool calls and separators. */
export function estimateMessages(messages: readonly EstimatedMessage[]): number {
  let tokens = 0;
  for (const message of messages) {
    tokens += PER_MESSAGE + contentTokens(message.content);
    for (const call of message.tool_calls ?? []) tokens += estimateTextTokens(call.function.name) + estimateTextTokens(call.function.arguments);
  }
  return tokens;
}

/** The estimated prompt tokens of a whole request of `messages`. */
export function estimateRequest(messages: readonly EstimatedMessage[]): number {
  return PER_REQUEST + estimateMessages(messages);
}

/**
 * The prompt tokens of the next request: when the service counted the last exchange (`usage` of
 * the reply to the request just before; its prompt is everything before the new messages, its
 * completion the reply now in the history), those counts plus an estimate of the `added`
 * messages; else the estimate of the whole request. A reply with reasoning counts its reasoning
 * too, which is not sent again: too high, the safe side.
 */
export function estimateNextRequest(messages: readonly EstimatedMessage[], last?: { usage: Usage; added: number }): number {
  if (last === undefined || last.usage.prompt_tokens <= 0 || last.added > messages.length) return estimateRequest(messages);
  return last.usage.prompt_tokens + last.usage.completion_tokens + estimateMessages(messages.slice(messages.length - last.added));
}

/**
 * The room kept for the reply: `maxTokens` when the request sets it (the server counts it), else
 * an eighth of the window up to 1,024 tokens, enough for a few paragraphs: a request that leaves
 * less will have its reply cut at the window.
 */
export function replyReserve(window: number, maxTokens?: number): number {
  if (maxTokens !== undefined && maxTokens > 0) return Math.min(maxTokens, window);
  return Math.min(1024, Math.floor(window / 8));
}

/** True when a request of `estimate` prompt tokens leaves `reserve` tokens of `window` for the reply. */
export function fits(estimate: number, window: number, reserve = replyReserve(window)): boolean {
  return estimate + reserve <= window;
}

/** True when `estimate` is over `percent` of `window` (the `autoCompact` setting: compact before sending). */
export function overShare(estimate: number, window: number, percent: number): boolean {
  return estimate > (window * percent) / 100;
}

/** "3120 of 4096 tokens of the context window (76%)": /usage's line for the last request. */
export function describeAgainstWindow(tokens: number, window: ContextWindow): string {
  const share = Math.round((tokens / window.tokens) * 100);
  return `${tokens} of ${window.tokens} tokens of the context window (${share}%${window.source === 'server' ? ', as the server says' : ''})`;
}

/** What the check before a send found, for the warning and for compacting first (`autoCompact`). */
export interface WindowCheck {
  window: ContextWindow;
  /** The prompt tokens the request is estimated at (estimateNextRequest). */
  estimate: number;
  /** The tokens kept for the reply (replyReserve). */
  reserve: number;
  /** The request and its reply's room fit the window. */
  fits: boolean;
}

/**
 * Whether the request of `messages` fits `window` with room for its reply: the one decision
 * before a send, for the session and a continued one-shot alike. `last` is the service's count of
 * the exchange before (estimateNextRequest); `maxTokens` the reply's limit when the request sets one.
 */
export function checkRequest(messages: readonly EstimatedMessage[], window: ContextWindow, options: { last?: { usage: Usage; added: number } | undefined; maxTokens?: number | undefined } = {}): WindowCheck {
  const estimate = estimateNextRequest(messages, options.last);
  const reserve = replyReserve(window.tokens, options.maxTokens);
  return { window, estimate, reserve, fits: fits(estimate, window.tokens, reserve) };
}

/** True when `autoCompact` (a percentage of the window) says to compact before this send. */
export function shouldCompact(check: WindowCheck, percent: number | 'off'): boolean {
  return percent !== 'off' && overShare(check.estimate, check.window.tokens, percent);
}

/** What is said before an automatic compaction: why, in the numbers that decided it. */
export function autoCompactNote(check: WindowCheck, percent: number): string {
  const share = Math.round((check.estimate / check.window.tokens) * 100);
  return `the next request would be about ${check.estimate} of ${check.window.tokens} tokens (${share}%), over autoCompact's ${percent}%: compacting the conversation first`;
}

/**
 * The line said before sending a request that will not fit: how large it is against what
 * window, that it is sent anyway (the server decides; nothing is cut), and what to do: compact,
 * in the session or with a continued one-shot, or give the model's real window if svc's is wrong.
 */
export function tooLongWarning(check: WindowCheck, model: string, where: 'session' | 'one-shot'): string {
  const { window } = check;
  const from = window.source === 'server' ? 'as the server says' : 'as contextWindow says';
  const compact = where === 'session' ? '/compact summarises earlier turns' : 'svc chat --continue --compact summarises earlier turns';
  return (
    `this conversation is about ${check.estimate} tokens, with ${check.reserve} kept for the reply: more than ${model}'s context window of ${window.tokens} (${from}); ` +
    `sent anyway: ${compact}; if the window is larger, svc config set contextWindow.${model} N`
  );
}
