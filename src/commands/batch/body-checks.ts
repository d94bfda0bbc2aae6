/**
 * A batch request's body, checked by the same rules as the flags of `svc chat` and `svc image`,
 * with each rule's message naming the body field instead of the flag ("body.temperature must be a
 * number from 0 to 2"). Then the flags' values fill the fields the body leaves out.
 *
 * JSON types are checked here (a number field must be a JSON number, not text); the values then
 * go through the rules `svc chat` applies to its flags (parseRequestFields, naming the body's
 * fields) and through `svc image`'s parser, whose refusals name a flag: those are reworded here.
 */
import type { ChatMessage, ChatRequest } from '../../api/chat-types.js';
import type { ImageRequest } from '../../api/images/generate.js';
import { UsageError } from '../../core/errors.js';
import type { AspectRatio, ImageFormat } from '../../api/images/formats.js';
import { isObject, type JsonObject } from '../../core/json.js';
import { parseModelId } from '../../core/parse-values.js';
import { parseRequestFields, type FieldNaming, type RawRequestFields, type RequestFieldName, type RequestFields } from '../../chat/request-fields.js';
import { parseImageOptions, type RawImageOptions } from '../image-options.js';

/** A body that cannot be sent; the message names the field. */
export class BodyProblem extends Error {}

/** What the flags give every chat request that does not say otherwise. */
export interface ChatDefaults {
  model: string;
  system: string | undefined;
  fields: RequestFields;
}

/** What the flags give every image request that does not say otherwise. */
export interface ImageDefaults {
  model: string;
  aspect: AspectRatio | undefined;
  format: ImageFormat | undefined;
  seed: number | undefined;
  negative: string | undefined;
}

/** The body fields svc sends to each endpoint (docs/service-api.md, "Chat" and "Images"). */
const CHAT_FIELDS = ['messages', 'model', 'max_tokens', 'temperature', 'top_p', 'stream', 'stop', 'presence_penalty', 'frequency_penalty', 'user'];
const IMAGE_FIELDS = ['prompt', 'model', 'aspect_ratio', 'output_format', 'seed', 'negative_prompt'];
/**
 * OpenAI's other request fields, which ordinary OpenAI Batch files carry: passed on as the line
 * gives them, for the service to check, as `--param` would send them. A name outside both lists
 * is still refused before anything is sent (a misspelt field never reaches the service).
 */
const CHAT_PASS_THROUGH = [
  'max_completion_tokens', 'n', 'seed', 'response_format', 'tools', 'tool_choice', 'parallel_tool_calls', 'logprobs', 'top_logprobs',
  'logit_bias', 'store', 'metadata', 'service_tier', 'modalities', 'prediction', 'prompt_cache_key', 'safety_identifier',
  'reasoning_effort', 'verbosity', 'web_search_options',
];
const IMAGE_PASS_THROUGH = ['size', 'quality', 'style', 'response_format', 'user', 'background', 'moderation', 'output_compression'];
const ROLES = new Set(['system', 'user', 'assistant']);

/** A short JSON rendering of a bad value, cut so a huge one stays readable. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/**
 * Run a flag parser on one field; its refusal is reworded to name the field, and to show the
 * value as JSON (`got 5`, not the flag's `got "5"`).
 */
function asField<T>(field: string, flag: string, value: unknown, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const named = error.message.split(flag).join(`body.${field}`);
    throw new BodyProblem(typeof value === 'string' ? named : named.replace(`; got "${String(value)}"`, `; got ${shown(value)}`));
  }
}

/** The fields that are set: `null` means "not set", as OpenAI's clients send it. */
function setFields(body: JsonObject, allowed: readonly string[], passed: readonly string[]): JsonObject {
  const own: JsonObject = {};
  for (const [name, value] of Object.entries(body)) {
    if (!allowed.includes(name) && !passed.includes(name)) {
      throw new BodyProblem(`body.${name} is not a field svc sends (it sends ${allowed.join(', ')}, and passes on OpenAI's ${passed.join(', ')})`);
    }
    if (value !== null) own[name] = value;
  }
  return own;
}

function checkMessages(value: unknown): ChatMessage[] {
  if (!Array.isArray(value) || value.length === 0) throw new BodyProblem(`body.messages must be a non-empty array of {role, content}; got ${shown(value)}`);
  return value.map((message, index) => {
    const at = `body.messages[${index}]`;
    if (!isObject(message)) throw new BodyProblem(`${at} must be an object with role and content; got ${shown(message)}`);
    const extra = Object.keys(message).find((key) => key !== 'role' && key !== 'content');
    if (extra !== undefined) throw new BodyProblem(`${at}.${extra} is not a message field (role, content)`);
    if (typeof message.role !== 'string' || !ROLES.has(message.role)) throw new BodyProblem(`${at}.role must be system, user or assistant; got ${shown(message.role)}`);
    if (typeof message.content !== 'string') throw new BodyProblem(`${at}.content must be a string; got ${shown(message.content)}`);
    return { role: message.role as ChatMessage['role'], content: message.content };
  });
}

function checkModel(own: JsonObject): string | undefined {
  if (own.model === undefined) return undefined;
  if (typeof own.model !== 'string') throw new BodyProblem(`body.model must be a string; got ${shown(own.model)}`);
  return asField('model', 'body.model', own.model, () => parseModelId(own.model as string, 'body.model'));
}

/** A batch line's fields are named as the body's: "body.temperature", "body.stop has 5 entries". */
const BODY_NAMING: FieldNaming = {
  name: (field) => `body.${field}`,
  listOf: (count) => `has ${count} entries`,
};

/** The JSON type each optional field must have before its rules are applied. */
const CHAT_FIELD_KINDS: Record<Exclude<RequestFieldName, 'stop'>, 'number' | 'integer' | 'string'> = {
  max_tokens: 'integer',
  temperature: 'number',
  top_p: 'number',
  presence_penalty: 'number',
  frequency_penalty: 'number',
  user: 'string',
};

function checkChatFieldTypes(own: JsonObject): RawRequestFields {
  const raw: Record<string, unknown> = {};
  for (const [field, kind] of Object.entries(CHAT_FIELD_KINDS)) {
    const value = own[field];
    if (value === undefined) continue;
    const wanted = kind === 'string' ? 'a string' : kind === 'integer' ? 'a whole number' : 'a number';
    const typeOk = kind === 'string' ? typeof value === 'string' : typeof value === 'number' && (kind === 'number' || Number.isInteger(value));
    if (!typeOk) throw new BodyProblem(`body.${field} must be ${wanted}; got ${shown(value)}`);
    raw[field] = value;
  }
  if (own.stop !== undefined) {
    const list = typeof own.stop === 'string' ? [own.stop] : own.stop;
    if (!Array.isArray(list) || list.length === 0 || !list.every((item) => typeof item === 'string')) {
      throw new BodyProblem(`body.stop must be a string or an array of strings; got ${shown(own.stop)}`);
    }
    raw.stop = list;
  }
  return raw as RawRequestFields;
}

function checkChatFields(own: JsonObject): RequestFields {
  const raw = checkChatFieldTypes(own);
  try {
    return parseRequestFields(raw, BODY_NAMING);
  } catch (error) {
    if (error instanceof UsageError) throw new BodyProblem(error.message.replace(/; got "([^"]*)"$/, '; got $1'));
    throw error;
  }
}

/**
 * A chat body → the request to send: the body's own fields as given, the flags' values for the
 * fields it leaves out, and -s as a leading system message when the body has no system message.
 */
export function checkChatBody(body: unknown, defaults: ChatDefaults): ChatRequest {
  if (!isObject(body)) throw new BodyProblem(`body must be a JSON object; got ${shown(body)}`);
  const own = setFields(body, CHAT_FIELDS, CHAT_PASS_THROUGH);
  if (own.stream !== undefined && own.stream !== false) {
    throw new BodyProblem(`body.stream must be false or absent (svc batch records whole answers); got ${shown(own.stream)}`);
  }
  const messages = checkMessages(own.messages);
  const model = checkModel(own);
  const fields = checkChatFields(own);
  const withSystem = defaults.system !== undefined && !messages.some((message) => message.role === 'system') ? [{ role: 'system' as const, content: defaults.system }, ...messages] : messages;
  return { ...defaults.fields, ...own, ...fields, model: model ?? defaults.model, messages: withSystem } as ChatRequest;
}

/** The image flag each field is checked as, and the raw option it goes in. */
const IMAGE_FLAGS: Record<string, { flag: string; raw: keyof RawImageOptions; kind: 'string' | 'integer' }> = {
  aspect_ratio: { flag: '--aspect', raw: 'aspect', kind: 'string' },
  output_format: { flag: '--format', raw: 'format', kind: 'string' },
  seed: { flag: '--seed', raw: 'seed', kind: 'integer' },
  negative_prompt: { flag: '--negative', raw: 'negative', kind: 'string' },
};

/** An image request, and the format its files will have (the body's, else the flag's, else png). */
export interface CheckedImageRequest {
  request: ImageRequest;
  format: ImageFormat;
}

/** An image body → the request to send, with the flags' values for the fields it leaves out. */
export function checkImageBody(body: unknown, defaults: ImageDefaults): CheckedImageRequest {
  if (!isObject(body)) throw new BodyProblem(`body must be a JSON object; got ${shown(body)}`);
  const own = setFields(body, IMAGE_FIELDS, IMAGE_PASS_THROUGH);
  if (typeof own.prompt !== 'string' || own.prompt.trim() === '') throw new BodyProblem(`body.prompt must be a non-empty string; got ${shown(own.prompt)}`);
  const model = checkModel(own);
  const raw: RawImageOptions = { words: [own.prompt] };
  for (const [field, rule] of Object.entries(IMAGE_FLAGS)) {
    const value = own[field];
    if (value === undefined) continue;
    const typeOk = rule.kind === 'string' ? typeof value === 'string' : typeof value === 'number' && Number.isInteger(value);
    if (!typeOk) throw new BodyProblem(`body.${field} must be ${rule.kind === 'string' ? 'a string' : 'a whole number'}; got ${shown(value)}`);
    (raw as unknown as Record<string, string>)[rule.raw] = String(value);
    asField(field, rule.flag, value, () => parseImageOptions({ ...raw }));
  }
  const plan = parseImageOptions(raw);
  const format = own.output_format === undefined ? (defaults.format ?? 'png') : plan.format;
  const request: ImageRequest = { prompt: own.prompt, model: model ?? defaults.model, output_format: format };
  const aspect = plan.aspect ?? defaults.aspect;
  if (aspect !== undefined) request.aspect_ratio = aspect;
  const seed = plan.seed ?? defaults.seed;
  if (seed !== undefined) request.seed = seed;
  const negative = plan.negative ?? defaults.negative;
  if (negative !== undefined) request.negative_prompt = negative;
  const passedOn = Object.fromEntries(IMAGE_PASS_THROUGH.filter((field) => own[field] !== undefined).map((field) => [field, own[field]]));
  return { request: { ...request, ...passedOn }, format };
}
