/**
 * The messages of a chat request as OpenAI-compatible clients send them: roles `system`,
 * `developer` (OpenAI's newer name for system instructions), `user`, `assistant` (with text, or
 * with `tool_calls` and no text) and `tool` (a tool's result, naming its `tool_call_id`), and
 * `content` as a string or an array of parts: `text`, and in a user message `image_url` (an
 * http(s) link, or a base64 `data:` URL read by the chat route). A server that takes text only
 * (the emulator started with `textOnly`) refuses content parts, as such a server does. The order
 * of a tool loop (a result for every call) is checked with the tools, in extras/openai/tools.ts.
 */
import { invalidParam } from '../errors.js';
import { describe, isObject, optionalEnum, optionalString, rejectUnknownFields, required, type JsonObject } from '../validate.js';

/** A message role (docs/service-api.md, "The request", and the OpenAI roles clients send today). */
export const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'] as const;

/** How closely an image is to be looked at (OpenAI's `detail`); `auto` when not given. */
export const IMAGE_DETAILS = ['low', 'high', 'auto'] as const;

/** An image part of a message, as sent: read (or not, for a link) by the chat route. */
export interface ImageInput {
  url: string;
  detail: (typeof IMAGE_DETAILS)[number];
  /** Where it is in the request (`messages[0].content[1].image_url`), for an error naming it. */
  param: string;
}

/** A call of a tool, as an assistant message of the conversation carries it. */
export interface MessageToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** One message of the conversation: its text, and what else it carries. */
export interface ChatMessage {
  role: (typeof ROLES)[number];
  /** The text: the string, or the text parts joined by newlines. */
  content: string;
  /** The image parts of a user message, in order. */
  images?: ImageInput[];
  /** An assistant message's calls of tools. */
  toolCalls?: MessageToolCall[];
  /** A tool message: the call it answers. */
  toolCallId?: string;
}

/** What the server takes: `textOnly`, a string content only, as the service's own API says. */
export interface MessageOptions {
  textOnly?: boolean;
}

const MESSAGE_FIELDS = ['role', 'content', 'name', 'tool_calls', 'tool_call_id', 'refusal'];

/** An image part's `image_url`: `{url, detail?}`. */
function parseImagePart(part: JsonObject, where: string, role: string): ImageInput {
  if (role !== 'user') {
    throw invalidParam(`${where}.type`, `${where}.type must be text in a ${role} message: image_url parts go in user messages`, 'invalid_value');
  }
  rejectUnknownFields(part, ['type', 'image_url'], `${where}.`);
  const image = required(part, 'image_url', `${where}.image_url`);
  if (!isObject(image) || typeof image.url !== 'string' || image.url === '') {
    throw invalidParam(`${where}.image_url.url`, `${where}.image_url must be an object with a url; got ${describe(image)}`, 'invalid_type');
  }
  rejectUnknownFields(image, ['url', 'detail'], `${where}.image_url.`);
  const detail = optionalEnum(image, 'detail', IMAGE_DETAILS, `${where}.image_url.detail`) ?? 'auto';
  checkImageUrl(image.url, `${where}.image_url.url`);
  return { url: image.url, detail, param: `${where}.image_url` };
}

/** The text of `content` (a string, or the text parts joined by newlines) and its image parts. */
function readContent(value: unknown, at: string, role: string, options: MessageOptions): { text: string; images: ImageInput[] } {
  if (typeof value === 'string') return { text: value, images: [] };
  if (Array.isArray(value) && options.textOnly) {
    // A text-only server's answer: its content is a string, and nothing else is read.
    throw invalidParam(`${at}.content`, `Invalid type for '${at}.content': expected a string, but got an array instead. This server takes text only: content parts (text, image_url) are not supported.`, 'invalid_type');
  }
  if (!Array.isArray(value) || value.length === 0) {
    throw invalidParam(`${at}.content`, `${at}.content must be a string or a non-empty array of content parts; got ${describe(value)}`, 'invalid_type');
  }
  const texts: string[] = [];
  const images: ImageInput[] = [];
  value.forEach((part: unknown, index) => {
    const where = `${at}.content[${index}]`;
    if (!isObject(part)) throw invalidParam(where, `${where} must be a content part object; got ${describe(part)}`, 'invalid_type');
    const type = optionalEnum(part, 'type', ['text', 'image_url'] as const, `${where}.type`);
    if (type === undefined) required(part, 'type', `${where}.type`);
    if (type === 'text') {
      rejectUnknownFields(part, ['type', 'text'], `${where}.`);
      required(part, 'text', `${where}.text`);
      texts.push(optionalString(part, 'text', `${where}.text`) as string);
    } else {
      images.push(parseImagePart(part, where, role));
    }
  });
  return { text: texts.join('\n'), images };
}

/** The image formats OpenAI reads from a message, as a data URL declares them (the bytes decide). */
const IMAGE_DATA_URL = /^data:image\/(?:png|jpeg|jpg|gif|webp);base64,([A-Za-z0-9+/]+={0,2})$/;

/**
 * An image part's URL, as OpenAI takes it: http(s), not fetched here (the emulator works
 * offline), or a base64 `data:` URL of a PNG, JPEG, GIF or WebP: a script that builds it wrong
 * (no `;base64`, a file path, text that is not base64) is told so here; what the bytes hold is
 * read by the chat route.
 */
function checkImageUrl(url: string, param: string): void {
  if (/^https?:\/\//i.test(url)) return;
  if (!url.startsWith('data:')) {
    throw invalidParam(param, `${param} must be an http(s) URL or a data:image/...;base64 URL; got ${describe(url)}`, 'invalid_image_url');
  }
  if (!IMAGE_DATA_URL.test(url) || (url.length - url.indexOf(',') - 1) % 4 !== 0) {
    throw invalidParam(param, `${param} is not a valid image data URL: expected data:image/png (jpeg, gif or webp);base64, then the base64 of the file; got ${describe(url)}`, 'invalid_image_format');
  }
}

/** The bytes of a data URL that {@link checkImageUrl} let through; undefined for an http(s) link. */
export function imageDataOf(image: ImageInput): Buffer | undefined {
  if (!image.url.startsWith('data:')) return undefined;
  return Buffer.from(image.url.slice(image.url.indexOf(',') + 1), 'base64');
}

function parseToolCalls(value: JsonObject, at: string): MessageToolCall[] | undefined {
  const calls = value.tool_calls;
  if (calls === undefined || calls === null) return undefined;
  const ok = Array.isArray(calls) && calls.every((call: unknown) => isObject(call) && typeof call.id === 'string' && isObject(call.function) && typeof call.function.name === 'string');
  if (!ok) throw invalidParam(`${at}.tool_calls`, `${at}.tool_calls must be an array of {id, type: "function", function: {name, arguments}}; got ${describe(calls)}`, 'invalid_type');
  return (calls as Array<{ id: string; function: { name: string; arguments?: unknown } }>).map((call) => ({
    id: call.id,
    name: call.function.name,
    arguments: typeof call.function.arguments === 'string' ? call.function.arguments : '',
  }));
}

export function parseMessage(value: unknown, index: number, options: MessageOptions = {}): ChatMessage {
  const at = `messages[${index}]`;
  if (!isObject(value)) {
    throw invalidParam(at, `${at} must be an object with role and content; got ${describe(value)}`, 'invalid_type');
  }
  rejectUnknownFields(value, MESSAGE_FIELDS, `${at}.`);
  required(value, 'role', `${at}.role`);
  const role = optionalEnum(value, 'role', ROLES, `${at}.role`) as ChatMessage['role'];
  optionalString(value, 'name', `${at}.name`);
  const toolCalls = role === 'assistant' ? parseToolCalls(value, at) : undefined;
  if (role !== 'assistant' && value.tool_calls !== undefined) rejectUnknownFields(value, MESSAGE_FIELDS.filter((field) => field !== 'tool_calls'), `${at}.`);
  if (role === 'tool') required(value, 'tool_call_id', `${at}.tool_call_id`);
  const toolCallId = optionalString(value, 'tool_call_id', `${at}.tool_call_id`);
  // The reply is built from system and user messages; a developer message is a system one.
  const shown = role === 'developer' ? 'system' : role;
  const extra = { ...(toolCalls ? { toolCalls } : {}), ...(role === 'tool' && toolCallId !== undefined ? { toolCallId } : {}) };
  // An assistant message that called tools may have no text.
  if (toolCalls && (value.content === null || value.content === undefined)) return { role: shown, content: '', ...extra };
  required(value, 'content', `${at}.content`);
  const { text, images } = readContent(value.content, at, role, options);
  return { role: shown, content: text, ...(images.length > 0 ? { images } : {}), ...extra };
}
