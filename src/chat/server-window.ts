/**
 * The context window of a model when no setting gives it: what the server says. llama-server
 * says it at `GET /props` (the window it runs with, at its root, not under /v1); other servers
 * in their model list (`GET /v1/models`, the model's `context_length` or a field like it). Asked
 * only when a check needs it, once per model for the life of a ContextWindows (a session, one
 * answer), each request once with a short timeout: a server that says nothing, answers slowly
 * or fails leaves the window unknown, never an error for the user.
 */
import { readUpTo } from '../api/answer-body.js';
import type { ApiClient } from '../api/client.js';
import { endpointUrl } from '../api/url.js';
import type { ChatRequest, Usage } from '../api/chat-types.js';
import type { Turn } from '../conversations/model.js';
import type { Compaction } from '../conversations/compaction-record.js';
import { compactedMessages, DEFAULT_KEEP, planCompaction } from '../conversations/compaction.js';
import { autoCompactNote, checkRequest, contextWindowFor, estimateRequest, overShare, shouldCompact, propsUrl, windowFromModelList, windowFromProps, type ContextWindow, type ContextWindowSettings, type WindowCheck } from './context-window.js';

/** How long one lookup may take, all of it: the user is waiting to send. */
export const LOOKUP_TIMEOUT_MS = 3000;

/** More than any /props or model list: a larger answer is not one. */
const MAX_LOOKUP_BYTES = 4 * 1024 * 1024;

/** The JSON answer of GET `url`, or undefined for anything else (a failure, a 404, a page, a timeout). */
async function lookUpJson(client: ApiClient, url: string, signal: AbortSignal | undefined): Promise<unknown> {
  try {
    const response = await client.lookUp(url, LOOKUP_TIMEOUT_MS, signal);
    const { text, complete } = await readUpTo(response.body, MAX_LOOKUP_BYTES);
    if (!complete) return undefined;
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The window the server at the client's base URL runs `model` with: /props, else the model list;
 * undefined when neither says. Both lookups share one LOOKUP_TIMEOUT_MS: a server that does not
 * answer the first costs no more waiting for the second.
 */
export async function askServerWindow(client: ApiClient, model: string, signal?: AbortSignal): Promise<number | undefined> {
  const budget = AbortSignal.timeout(LOOKUP_TIMEOUT_MS);
  const within = signal ? AbortSignal.any([signal, budget]) : budget;
  const props = windowFromProps(await lookUpJson(client, propsUrl(client.baseUrl, model), within));
  if (props !== undefined || within.aborted) return props;
  return windowFromModelList(await lookUpJson(client, endpointUrl(client.baseUrl, 'models'), within), model);
}

/**
 * The windows of the models a session (or one answer) sends to: the settings first, then the
 * server, asked at most once per model and remembered (a window that is unknown too).
 */
export class ContextWindows {
  readonly #settings: ContextWindowSettings;
  readonly #ask: (model: string, signal?: AbortSignal) => Promise<number | undefined>;
  readonly #asked = new Map<string, Promise<number | undefined>>();

  constructor(settings: ContextWindowSettings, ask: (model: string, signal?: AbortSignal) => Promise<number | undefined>) {
    this.#settings = settings;
    this.#ask = ask;
  }

  /** For the settings of a profile and the server behind `client`. */
  static of(settings: ContextWindowSettings, client: ApiClient): ContextWindows {
    return new ContextWindows(settings, (model, signal) => askServerWindow(client, model, signal));
  }

  /** The window of `model` as known without asking: a setting, or what the server said before. */
  async known(model: string): Promise<ContextWindow | undefined> {
    const fromSetting = contextWindowFor(model, this.#settings);
    if (fromSetting) return fromSetting;
    const asked = this.#asked.get(model);
    return asked ? contextWindowFor(model, {}, await asked) : undefined;
  }

  /** The window of `model`: a setting, else the server's (asked now, the first time only). */
  async of(model: string, signal?: AbortSignal): Promise<ContextWindow | undefined> {
    const fromSetting = contextWindowFor(model, this.#settings);
    if (fromSetting) return fromSetting;
    let asked = this.#asked.get(model);
    if (asked === undefined) {
      asked = this.#ask(model, signal);
      this.#asked.set(model, asked);
    }
    const tokens = await asked;
    // Stopped by the user while asking: not an answer, so the next check asks again.
    if (signal?.aborted) this.#asked.delete(model);
    return contextWindowFor(model, {}, tokens);
  }
}

/** What the check reads of a conversation: its turns, and the compaction in force. */
export interface SentConversation {
  turns: readonly Turn[];
  activeCompaction?: Compaction | undefined;
}

/**
 * Whether compacting (keeping the last DEFAULT_KEEP turns) could bring the request under
 * `percent` of the window: the turns kept and the new message alone, with no summary at all,
 * must be under it. Otherwise a compaction before every send would summarise a turn or two and
 * change nothing.
 */
function compactionHelps(conversation: SentConversation & { system: string | undefined }, newMessage: ChatRequest['messages'][number], check: WindowCheck, percent: number): boolean {
  const plan = planCompaction(conversation.turns, DEFAULT_KEEP, conversation.activeCompaction);
  if (!plan) return false;
  // The images' addresses do not change an estimate (an image counts at a fixed size).
  const kept = compactedMessages(conversation, { summary: '', through: plan.through, kept: plan.kept.length, at: '' }, (image) => image.url ?? '');
  return !overShare(estimateRequest([...kept, newMessage]), check.window.tokens, percent);
}

/** What the check before a send needs of its caller: the session or a one-shot run. */
export interface BeforeSend {
  windows: ContextWindows;
  conversation: SentConversation & { system: string | undefined };
  /** The request as it would go now (built again after a compaction). */
  request(): ChatRequest;
  /** The `autoCompact` setting. */
  autoCompact: number | 'off';
  /** Compact the conversation, keeping its last DEFAULT_KEEP turns, as /compact does. */
  compact(): Promise<void>;
  /** Say a line of talk (why it compacts). */
  note(text: string): void;
  /** Say that the request will not fit (it is sent all the same). */
  warn(check: WindowCheck): void;
  signal?: AbortSignal | undefined;
}

/**
 * Before a send that follows earlier turns: when the request would fill more than `autoCompact`
 * of the window and compacting can help, compact first (said in one line); then, when it will
 * still not fit with room for the reply, warn. Nothing is cut: the server decides. Returns the
 * messages checked, as they stand after any compaction: those to send.
 */
export async function beforeSend(how: BeforeSend): Promise<ChatRequest['messages']> {
  const { windows, conversation, autoCompact } = how;
  let request = how.request();
  let check = await checkBeforeSend(windows, request, conversation, how.signal);
  if (!check) return request.messages;
  if (autoCompact !== 'off' && shouldCompact(check, autoCompact) && compactionHelps(conversation, request.messages.at(-1)!, check, autoCompact)) {
    how.note(autoCompactNote(check, autoCompact));
    await how.compact();
    request = how.request();
    check = await checkBeforeSend(windows, request, conversation, how.signal);
  }
  if (check && !check.fits) how.warn(check);
  return request.messages;
}

/**
 * The service's count of the exchange before the next request, when it can stand for it: the
 * last turn's usage, if that turn was one request (no tool steps, whose counts add up several)
 * to the same model (another counts with another tokenizer), not cut short, counted, and sent
 * after the compaction in force, if any (one from before it counted the turns now summarised).
 * What is new since is the one message about to be sent.
 */
export function lastExchange(conversation: SentConversation, model: string): { usage: Usage; added: number } | undefined {
  const { turns, activeCompaction: active } = conversation;
  const turn = turns.at(-1);
  if (active && turns.length <= active.through + active.kept) return undefined;
  if (!turn?.usage || turn.usage.prompt_tokens <= 0 || turn.interrupted || (turn.steps?.length ?? 0) > 0 || turn.model !== model) return undefined;
  return { usage: turn.usage, added: 1 };
}

/**
 * The check before sending `request` in a conversation of `turns` (chat/context-window.ts
 * checkRequest): undefined when the window of its model is not known. Only a conversation with
 * earlier turns is checked, so a first message costs no lookup; the caller says the warning, and
 * may compact first (shouldCompact).
 */
export async function checkBeforeSend(windows: ContextWindows, request: Pick<ChatRequest, 'model' | 'messages' | 'max_tokens'>, conversation: SentConversation, signal?: AbortSignal): Promise<WindowCheck | undefined> {
  if (conversation.turns.length === 0) return undefined;
  const window = await windows.of(request.model, signal);
  if (!window) return undefined;
  return checkRequest(request.messages, window, { last: lastExchange(conversation, request.model), maxTokens: request.max_tokens });
}
