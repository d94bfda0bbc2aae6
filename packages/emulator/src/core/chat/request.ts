/**
 * Validation of a chat completion request's service fields (docs/service-api.md, "Chat" and
 * "Limits", plus the OpenAI conventions the service's document leaves open: `stop` holds 1 to 4
 * strings, `stream_options` exists only with `stream: true`). The result is a typed request with
 * every default applied. The OpenAI fields beyond these (`n`, `seed`, `tools`, ...) are read by
 * extras/openai/chat-request.ts, which calls this first.
 */
import { invalidParam } from '../errors.js';
import { DEFAULT_CHAT_MODEL } from '../models.js';
import { parseMessage, type ChatMessage, type MessageOptions } from './messages.js';
import {
  describe, isObject, optionalBoolean, optionalInteger, optionalNumber, optionalString,
  rejectUnknownFields, required, type JsonObject,
} from '../validate.js';

export { ROLES, type ChatMessage, type MessageOptions } from './messages.js';

/** A validated chat request with its defaults filled in. */
export interface ServiceChatRequest {
  messages: ChatMessage[];
  /** Not yet checked against the served models: that is a 404, not a 400. */
  model: string;
  maxTokens: number | undefined;
  temperature: number;
  topP: number;
  stream: boolean;
  stop: string[];
  presencePenalty: number;
  frequencyPenalty: number;
  user: string | undefined;
  includeUsage: boolean;
}

const FIELDS = [
  'messages', 'model', 'max_tokens', 'temperature', 'top_p', 'stream', 'stop',
  'presence_penalty', 'frequency_penalty', 'user', 'stream_options',
];

/** OpenAI accepts at most four stop sequences. */
const MAX_STOP = 4;

function parseMessages(body: JsonObject, options: MessageOptions): ChatMessage[] {
  const value = required(body, 'messages');
  if (!Array.isArray(value)) {
    throw invalidParam('messages', `messages must be an array of message objects; got ${describe(value)}`, 'invalid_type');
  }
  if (value.length === 0) throw invalidParam('messages', 'messages must contain at least one message', 'empty_array');
  return value.map((message, index) => parseMessage(message, index, options));
}

function parseStop(body: JsonObject): string[] {
  const value = body.stop;
  if (value === undefined || value === null) return [];
  const list: unknown[] = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  const ok = list.length >= 1 && list.length <= MAX_STOP && list.every((s) => typeof s === 'string' && s !== '');
  if (!ok) {
    throw invalidParam('stop', `stop must be a non-empty string or an array of 1 to ${MAX_STOP} non-empty strings; got ${describe(value)}`,
      Array.isArray(value) || typeof value === 'string' ? 'invalid_value' : 'invalid_type');
  }
  return list as string[];
}

function parseIncludeUsage(body: JsonObject, stream: boolean): boolean {
  const options = body.stream_options;
  if (options === undefined || options === null) return false;
  if (!stream) {
    throw invalidParam('stream_options', 'stream_options is only allowed when stream is true', 'invalid_value');
  }
  if (!isObject(options)) {
    throw invalidParam('stream_options', `stream_options must be an object like {"include_usage": true}; got ${describe(options)}`, 'invalid_type');
  }
  rejectUnknownFields(options, ['include_usage'], 'stream_options.');
  return optionalBoolean(options, 'include_usage', 'stream_options.include_usage') ?? false;
}

/**
 * Validates a parsed JSON body as a chat request's service fields. Throws a 400 naming the first
 * bad parameter; unknown fields (any not here nor in `moreFields`, those a caller reads after
 * this) are refused first, as OpenAI does, so a misspelt option is never silently ignored.
 * `options` say what the server takes (a text-only one refuses content parts).
 */
export function parseServiceChatRequest(body: unknown, moreFields: readonly string[] = [], options: MessageOptions = {}): ServiceChatRequest {
  if (!isObject(body)) {
    throw invalidParam(null, `The request body must be a JSON object; got ${describe(body)}`, 'invalid_type');
  }
  rejectUnknownFields(body, [...FIELDS, ...moreFields]);
  const messages = parseMessages(body, options);
  const model = optionalString(body, 'model') ?? DEFAULT_CHAT_MODEL;
  const maxTokens = optionalInteger(body, 'max_tokens', 1);
  const temperature = optionalNumber(body, 'temperature', 0, 2) ?? 1;
  const topP = optionalNumber(body, 'top_p', 0, 1) ?? 1;
  const stream = optionalBoolean(body, 'stream') ?? false;
  const stop = parseStop(body);
  const presencePenalty = optionalNumber(body, 'presence_penalty', -2, 2) ?? 0;
  const frequencyPenalty = optionalNumber(body, 'frequency_penalty', -2, 2) ?? 0;
  const user = optionalString(body, 'user');
  const includeUsage = parseIncludeUsage(body, stream);
  return { messages, model, maxTokens, temperature, topP, stream, stop, presencePenalty, frequencyPenalty, user, includeUsage };
}
