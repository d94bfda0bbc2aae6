/**
 * One chat completion, streamed or not, delivered as text deltas to a callback and returned
 * whole as one answer object (docs/service-api.md, "The answer, whole").
 */
import { ApiError, MalformedResponseError, NetworkError, ReplyCutError } from '../core/errors.js';
import { imagesRefusedError, refusesImages, sendsContentParts } from './images-refused.js';
import { isObject } from '../core/json.js';
import { htmlAnswerError, isHtmlAnswer, peekBody, readUpTo } from './answer-body.js';
import { CompletionAssembler } from './chat-assembler.js';
import type { ChatCompletion, ChatRequest } from './chat-types.js';
import type { ApiClient, ApiResponse } from './client.js';
import { MAX_CHAT_ANSWER_BYTES } from './limits.js';
import { describeBytes } from '../core/byte-size.js';
import { missingReplyError } from './reply-checks.js';
import { closedBeforeReply } from './transport-errors.js';
import { hasServiceError, parseServiceJson as parseJson, serviceErrorIn } from './service-message.js';
import { SseDecoder } from './sse/decode.js';
import { RepeatChunks } from './sse/repeat-chunks.js';
import type { SseEvent } from './sse/event-parser.js';

export interface ChatCallbacks {
  signal?: AbortSignal;
  /** Called with each piece of reply text as it arrives; awaited, so it can apply backpressure. */
  onDelta?: (text: string) => void | Promise<void>;
  /** Called with each piece of reasoning text (`reasoning_content`, `reasoning`) as it arrives; awaited too. */
  onReasoning?: (text: string) => void | Promise<void>;
  /** The request offered tools that svc runs: a reply that only calls them is a reply, not an error. */
  runsTools?: boolean;
  /** Called once the service answered with success, before the body is read (svc batch records these). */
  onResponse?: (answer: { status: number; requestId: string | undefined }) => void;
}

/** A stream's error event: its data parsed when it is JSON, else kept as the message text. */
function streamErrorValue(data: string): unknown {
  if (!data.startsWith('{')) return undefined;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

/** What a JSON value is, for a message about an answer of the wrong kind. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? 'a string' : `a ${typeof value}`;
}

/**
 * Whether the answer is an event stream, by its first characters first and its Content-Type
 * second: some servers label a stream `application/json`, or a whole completion
 * `text/event-stream`, and either way the body says what it is. Anything else is read as JSON,
 * whose error quotes what came instead (a stream would only say it ended early).
 */
function readsAsStream(head: string, contentType: string): boolean {
  if (/^[{[]/.test(head)) return false;
  if (head.startsWith(':') || /^(data|event|id|retry)[ \t]*:/.test(head)) return true;
  return contentType.includes('event-stream');
}

/** A whole JSON completion (non-streaming, or a service that ignored `stream: true`). */
async function readCompletion(body: AsyncIterable<Uint8Array>, assembler: CompletionAssembler, callbacks: ChatCallbacks, requestId: string | undefined): Promise<void> {
  const { text, complete } = await readUpTo(body, MAX_CHAT_ANSWER_BYTES);
  if (!complete) {
    throw new MalformedResponseError(`the service's answer is larger than ${describeBytes(MAX_CHAT_ANSWER_BYTES)}, far beyond any real chat answer; stopped reading`);
  }
  const value = parseJson(text, 'an answer');
  if (!isObject(value)) throw new MalformedResponseError(`the service's answer is not a chat completion: it is ${kindOf(value)}, not a JSON object`);
  if (hasServiceError(value)) throw serviceErrorIn(value, text, requestId, 'answer');
  const delta = assembler.add(value);
  if (assembler.lastReasoning !== '') await callbacks.onReasoning?.(assembler.lastReasoning);
  if (delta !== '') await callbacks.onDelta?.(delta);
}

/**
 * Text waiting to be handed out, in the order it came: runs of reply text and of reasoning. All
 * the text of one network read goes out in one call per run (20,000 one-word writes to a pipe
 * cost more than everything else svc does with a stream).
 */
class PendingText {
  readonly #runs: Array<{ reasoning: boolean; parts: string[] }> = [];

  push(text: string, reasoning: boolean): void {
    const last = this.#runs.at(-1);
    if (last?.reasoning === reasoning) last.parts.push(text);
    else this.#runs.push({ reasoning, parts: [text] });
  }

  async flush(callbacks: ChatCallbacks): Promise<void> {
    while (this.#runs.length > 0) {
      const run = this.#runs.shift()!;
      const text = run.parts.join('');
      await (run.reasoning ? callbacks.onReasoning?.(text) : callbacks.onDelta?.(text));
    }
  }
}

/**
 * Handle one event, or the text of the remembered chunk again (read by sse/repeat-chunks.ts
 * without parsing it); true when it was the `[DONE]` terminator. Its text waits in `pending`.
 */
function handleItem(item: SseEvent | string, assembler: CompletionAssembler, pending: PendingText, requestId: string | undefined, repeats: RepeatChunks): boolean {
  if (typeof item !== 'string') return handleEvent(item, assembler, pending, requestId, repeats);
  if (assembler.addText(item) !== '') pending.push(item, false);
  return false;
}

/** Handle one event parsed in full; true when it was the `[DONE]` terminator. */
function handleEvent(event: SseEvent, assembler: CompletionAssembler, pending: PendingText, requestId: string | undefined, repeats: RepeatChunks): boolean {
  const data = event.data.trim();
  // Mid-reply once any text came; before it, the words say so (an over-long prompt refused at once).
  const where = assembler.sawContent || assembler.reasoning !== '' ? 'stream' : 'stream-start';
  if (event.event === 'error') throw serviceErrorIn(streamErrorValue(data), data, requestId, where);
  if (data === '') return false;
  if (data === '[DONE]') return true;
  const value = parseJson(data, 'a stream event');
  if (hasServiceError(value)) throw serviceErrorIn(value, data, requestId, where);
  repeats.remember(data, value);
  const delta = assembler.add(value);
  if (assembler.lastReasoning !== '') pending.push(assembler.lastReasoning, true);
  if (delta !== '') pending.push(delta, false);
  return false;
}

/** An SSE stream of `chat.completion.chunk` events, ended by `data: [DONE]`. */
async function readStream(response: ApiResponse, body: AsyncIterable<Uint8Array>, assembler: CompletionAssembler, callbacks: ChatCallbacks): Promise<void> {
  const repeats = new RepeatChunks();
  const decoder = new SseDecoder(repeats);
  const pending = new PendingText();
  const flush = (): Promise<void> => pending.flush(callbacks);
  try {
    for await (const chunk of body) {
      for (const item of decoder.push(chunk)) {
        if (handleItem(item, assembler, pending, response.requestId, repeats)) {
          response.discard();
          return;
        }
      }
      await flush();
    }
    for (const item of decoder.end()) if (handleItem(item, assembler, pending, response.requestId, repeats)) return;
  } finally {
    // Text that came before an error (or the end) is shown before the error is.
    await flush();
  }
  // No [DONE]: complete only if the service said why it finished.
  if (assembler.finishReason === null) {
    throw new NetworkError('stream interrupted: the service ended the stream before the reply was complete');
  }
}

/**
 * Send one chat request and deliver its reply. Once the service has answered, a failure is a
 * ReplyCutError holding what had arrived (its `partial`) and the failure itself (its `cause`).
 */
export async function runChat(client: ApiClient, request: ChatRequest, callbacks: ChatCallbacks = {}): Promise<ChatCompletion> {
  let response;
  try {
    response = await client.post('chat/completions', request, callbacks.signal);
  } catch (error) {
    throw error instanceof ApiError && sendsContentParts(request) && refusesImages(error) ? imagesRefusedError(error) : error;
  }
  callbacks.onResponse?.({ status: response.status, requestId: response.requestId });
  const assembler = new CompletionAssembler(request.model);
  try {
    const { head, body } = await peekBody(response.body);
    if (isHtmlAnswer(head, response.contentType)) throw await htmlAnswerError(body, client.baseUrlOrigin);
    if (head === '') {
      // A stream that ends before its first event was cut, whatever ended it (a proxy closing
      // the connection, a server that crashed after its headers): the same network failure as
      // a JSON answer cut there, never an "empty answer".
      if (request.stream === true || response.contentType.includes('event-stream')) throw closedBeforeReply(response.url);
      throw new MalformedResponseError('the service sent an empty answer (a success status with no body)', { hint: 'try again; if it persists, the service or a proxy in front of it is at fault' });
    }
    if (readsAsStream(head, response.contentType)) await readStream(response, body, assembler, callbacks);
    else await readCompletion(body, assembler, callbacks, response.requestId);
    const missing = missingReplyError(assembler, response.requestId, callbacks.runsTools === true);
    if (missing) throw missing;
  } catch (error) {
    response.discard();
    throw new ReplyCutError<ChatCompletion>(error, assembler.completion());
  }
  return assembler.completion();
}
