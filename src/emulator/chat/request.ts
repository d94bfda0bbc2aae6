/**
 * Validation of a chat completion request (service-api.md 2.1, 4.1 and 8, plus the OpenAI
 * conventions the spec leaves open: `stop` holds 1 to 4 strings, `stream_options` exists only
 * with `stream: true`). The result is a typed request with every default applied.
 */
import { invalidParam } from '../errors.js';
import { DEFAULT_CHAT_MODEL } from '../models.js';
import { checkToolTurns, parseMessage, type ChatMessage } from './messages.js';
import { parseResponseFormat, type ResponseFormat } from './response-format.js';
import { parseTools, type Tools } from './tools.js';
import { parseLogprobs, type LogprobsRequest } from './logprobs.js';
import { CLIENT_FIELDS, parseClientFields, type ClientFields } from './client-fields.js';
import {
  describe, isObject, optionalBoolean, optionalInteger, optionalNumber, optionalString,
  rejectUnknownFields, required, type JsonObject,
} from '../validate.js';

export { ROLES, type ChatMessage } from './messages.js';

/** A validated chat request with its defaults filled in. */
export interface ChatRequest {
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
  /** How many choices to make (`n`, 1 to 8). */
  n: number;
  /** `seed`: the same seed and messages give the same reply, whatever the temperature. */
  seed: number | undefined;
  responseFormat: ResponseFormat;
  tools: Tools;
  logprobs: LogprobsRequest;
  /** What client code adds that changes nothing in the reply (client-fields.ts). */
  client: ClientFields;
}

const FIELDS = [
  'messages', 'model', 'max_tokens', 'temperature', 'top_p', 'stream', 'stop',
  'presence_penalty', 'frequency_penalty', 'user', 'stream_options',
  'max_completion_tokens', 'n', 'seed', 'response_format', 'tools', 'tool_choice', 'parallel_tool_calls',
  'logprobs', 'top_logprobs', ...CLIENT_FIELDS,
];

/** OpenAI's bound on `n` is 128; the emulator makes at most eight replies. */
const MAX_N = 8;

/** `max_completion_tokens` (OpenAI's newer name) or `max_tokens`; both given, they must agree. */
function parseMaxTokens(body: JsonObject): number | undefined {
  const legacy = optionalInteger(body, 'max_tokens', 1);
  const current = optionalInteger(body, 'max_completion_tokens', 1);
  if (legacy !== undefined && current !== undefined && legacy !== current) {
    throw invalidParam('max_tokens', 'max_tokens and max_completion_tokens were both given with different values; send one', 'invalid_value');
  }
  return current ?? legacy;
}

function parseN(body: JsonObject): number {
  const n = optionalInteger(body, 'n', 1) ?? 1;
  if (n > MAX_N) throw invalidParam('n', `n must be an integer from 1 to ${MAX_N}; got ${n}`, 'invalid_value');
  return n;
}

function parseSeed(body: JsonObject): number | undefined {
  const value = body.seed;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw invalidParam('seed', `seed must be an integer; got ${describe(value)}`, 'invalid_type');
  return value;
}

/** OpenAI accepts at most four stop sequences. */
const MAX_STOP = 4;

function parseMessages(body: JsonObject): ChatMessage[] {
  const value = required(body, 'messages');
  if (!Array.isArray(value)) {
    throw invalidParam('messages', `messages must be an array of message objects; got ${describe(value)}`, 'invalid_type');
  }
  if (value.length === 0) throw invalidParam('messages', 'messages must contain at least one message', 'empty_array');
  const messages = value.map(parseMessage);
  checkToolTurns(value as JsonObject[]);
  return messages;
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
 * OpenAI refuses `json_object` unless a message asks for JSON in words (a model told only by the
 * format tends to write whitespace until the token limit), and scripts meet that refusal the day
 * they move from the emulator to the service: here they meet it first.
 */
function requireJsonWord(messages: readonly ChatMessage[], format: ResponseFormat): void {
  if (format.type !== 'json_object' || messages.some((message) => /json/i.test(message.content))) return;
  throw invalidParam('messages', "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.", null);
}

/**
 * Validates a parsed JSON body as a chat request. Throws a 400 naming the first bad parameter;
 * unknown fields are refused first, as OpenAI does, so a misspelt option is never silently ignored.
 */
export function parseChatRequest(body: unknown): ChatRequest {
  if (!isObject(body)) {
    throw invalidParam(null, `The request body must be a JSON object; got ${describe(body)}`, 'invalid_type');
  }
  rejectUnknownFields(body, FIELDS);
  const messages = parseMessages(body);
  const model = optionalString(body, 'model') ?? DEFAULT_CHAT_MODEL;
  const maxTokens = parseMaxTokens(body);
  const temperature = optionalNumber(body, 'temperature', 0, 2) ?? 1;
  const topP = optionalNumber(body, 'top_p', 0, 1) ?? 1;
  const stream = optionalBoolean(body, 'stream') ?? false;
  const stop = parseStop(body);
  const presencePenalty = optionalNumber(body, 'presence_penalty', -2, 2) ?? 0;
  const frequencyPenalty = optionalNumber(body, 'frequency_penalty', -2, 2) ?? 0;
  const user = optionalString(body, 'user');
  const includeUsage = parseIncludeUsage(body, stream);
  const n = parseN(body);
  const seed = parseSeed(body);
  const responseFormat = parseResponseFormat(body);
  requireJsonWord(messages, responseFormat);
  const tools = parseTools(body);
  const logprobs = parseLogprobs(body);
  const client = parseClientFields(body);
  return { messages, model, maxTokens, temperature, topP, stream, stop, presencePenalty, frequencyPenalty, user, includeUsage, n, seed, responseFormat, tools, logprobs, client };
}
