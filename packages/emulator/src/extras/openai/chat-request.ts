/**
 * The OpenAI chat fields svc never sends, read after the service's (core/chat/request.ts):
 * `max_completion_tokens` (the newer name of `max_tokens`), `n`, `seed`, `response_format`,
 * `tools` with `tool_choice` and `parallel_tool_calls` (and the order of a tool loop in the
 * messages), `logprobs` and `top_logprobs`, and the fields client code adds that change nothing
 * (client-fields.ts). The result is the whole request the chat endpoint answers.
 */
import { invalidParam } from '../../core/errors.js';
import { parseServiceChatRequest, type ChatMessage, type MessageOptions, type ServiceChatRequest } from '../../core/chat/request.js';
import { describe, optionalInteger, type JsonObject } from '../../core/validate.js';
import { CLIENT_FIELDS, parseClientFields, type ClientFields } from './client-fields.js';
import { parseLogprobs, type LogprobsRequest } from './logprobs.js';
import { parseResponseFormat, type ResponseFormat } from './response-format.js';
import { checkToolTurns, parseTools, type Tools } from './tools.js';

export type { ChatMessage };

/** A validated chat request, the service's fields and OpenAI's, with its defaults filled in. */
export interface ChatRequest extends ServiceChatRequest {
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

const OPENAI_FIELDS = [
  'max_completion_tokens', 'n', 'seed', 'response_format', 'tools', 'tool_choice', 'parallel_tool_calls',
  'logprobs', 'top_logprobs', ...CLIENT_FIELDS,
];

/** OpenAI's bound on `n` is 128; the emulator makes at most eight replies. */
const MAX_N = 8;

/** `max_completion_tokens` (OpenAI's newer name) or `max_tokens`; both given, they must agree. */
function parseMaxTokens(body: JsonObject, legacy: number | undefined): number | undefined {
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
 * Validates a parsed JSON body as a chat request: the service's fields first, then OpenAI's.
 * Throws a 400 naming the first bad parameter. `options` say what the server takes (text only).
 */
export function parseChatRequest(value: unknown, options: MessageOptions = {}): ChatRequest {
  const request = parseServiceChatRequest(value, OPENAI_FIELDS, options);
  // An object: the service's fields were read from it.
  const body = value as JsonObject;
  checkToolTurns(body.messages as JsonObject[]);
  const maxTokens = parseMaxTokens(body, request.maxTokens);
  const n = parseN(body);
  const seed = parseSeed(body);
  const responseFormat = parseResponseFormat(body);
  requireJsonWord(request.messages, responseFormat);
  const tools = parseTools(body);
  const logprobs = parseLogprobs(body);
  const client = parseClientFields(body);
  return { ...request, maxTokens, n, seed, responseFormat, tools, logprobs, client };
}
