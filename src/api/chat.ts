/**
 * One chat completion, streamed or not, delivered as text deltas to a callback and returned
 * whole as the service-api.md 2.2 object.
 */
import { MalformedResponseError, NetworkError, ServerError } from '../errors.js';
import { readAllText } from '../io.js';
import { CompletionAssembler } from './chat-assembler.js';
import type { ChatCompletion, ChatRequest } from './chat-types.js';
import type { ApiClient, ApiResponse } from './client.js';
import { extractServiceMessage, messageFromJson, parseServiceJson as parseJson } from './service-message.js';
import { SseDecoder } from './sse/decode.js';
import type { SseEvent } from './sse/event-parser.js';

export interface ChatCallbacks {
  signal?: AbortSignal;
  /** Called with each piece of reply text as it arrives; awaited, so it can apply backpressure. */
  onDelta?: (text: string) => void | Promise<void>;
}

/**
 * The partial completion travels with an error raised mid-reply, so the caller can still print
 * `--json` or save what arrived.
 */
export function partialOf(error: unknown): ChatCompletion | undefined {
  return (error as { partial?: ChatCompletion } | null)?.partial;
}

function attachPartial(error: unknown, assembler: CompletionAssembler): unknown {
  if (error !== null && typeof error === 'object') Object.assign(error, { partial: assembler.completion() });
  return error;
}


/** An `error` inside a 200 answer or a stream event: the service failed after it started. */
function streamServerError(value: unknown, rawData: string): ServerError {
  const message = messageFromJson(value) ?? extractServiceMessage(rawData, undefined).message ?? 'unknown error';
  return new ServerError(`the service reported an error mid-reply: ${message}`, { status: 0, serviceMessage: message, requestId: undefined });
}

/** A whole JSON completion (non-streaming, or a service that ignored `stream: true`). */
async function readCompletion(response: ApiResponse, assembler: CompletionAssembler, callbacks: ChatCallbacks): Promise<void> {
  const text = await readAllText(response.body);
  const value = parseJson(text, 'an answer');
  if (value !== null && typeof value === 'object' && 'error' in value) throw streamServerError(value, text);
  const delta = assembler.add(value);
  if (!assembler.sawChoice) throw new MalformedResponseError('the service answered without choices: not a chat completion');
  if (delta !== '') await callbacks.onDelta?.(delta);
}

/**
 * Handle one event; true when it was the `[DONE]` terminator. Text goes into `pending`, so all
 * the deltas of one network read reach stdout in one write (20,000 one-word writes to a pipe
 * cost more than everything else svc does with a stream).
 */
function handleEvent(event: SseEvent, assembler: CompletionAssembler, pending: string[]): boolean {
  const data = event.data.trim();
  if (event.event === 'error') throw streamServerError(data.startsWith('{') ? parseJson(data, 'an error event') : undefined, data);
  if (data === '') return false;
  if (data === '[DONE]') return true;
  const value = parseJson(data, 'a stream event');
  if (value !== null && typeof value === 'object' && 'error' in value && (value as { error: unknown }).error) {
    throw streamServerError(value, data);
  }
  const delta = assembler.add(value);
  if (delta !== '') pending.push(delta);
  return false;
}

/** An SSE stream of `chat.completion.chunk` events, ended by `data: [DONE]`. */
async function readStream(response: ApiResponse, assembler: CompletionAssembler, callbacks: ChatCallbacks): Promise<void> {
  const decoder = new SseDecoder();
  const pending: string[] = [];
  const flush = async (): Promise<void> => {
    if (pending.length === 0) return;
    const text = pending.join('');
    pending.length = 0;
    await callbacks.onDelta?.(text);
  };
  try {
    for await (const chunk of response.body) {
      for (const event of decoder.push(chunk)) {
        if (handleEvent(event, assembler, pending)) {
          response.discard();
          return;
        }
      }
      await flush();
    }
    for (const event of decoder.end()) if (handleEvent(event, assembler, pending)) return;
  } finally {
    // Text that came before an error (or the end) is shown before the error is.
    await flush();
  }
  // No [DONE]: complete only if the service said why it finished.
  if (assembler.finishReason === null) {
    throw new NetworkError('stream interrupted: the service ended the stream before the reply was complete');
  }
}

/** Send one chat request and deliver its reply. */
export async function runChat(client: ApiClient, request: ChatRequest, callbacks: ChatCallbacks = {}): Promise<ChatCompletion> {
  const response = await client.post('chat/completions', request, callbacks.signal);
  const assembler = new CompletionAssembler(request.model);
  try {
    const isJson = response.contentType.includes('json');
    if (request.stream && !isJson) await readStream(response, assembler, callbacks);
    else await readCompletion(response, assembler, callbacks);
  } catch (error) {
    response.discard();
    throw attachPartial(error, assembler);
  }
  return assembler.completion();
}
