/**
 * The messages of a chat request as OpenAI-compatible clients send them: roles `system`,
 * `developer` (OpenAI's newer name for system instructions), `user`, `assistant` (with text, or
 * with `tool_calls` and no text) and `tool` (a tool's result, naming its `tool_call_id`), and
 * `content` as a string or an array of parts (`text`, `image_url`). The emulator reads the text;
 * an image part is accepted and counted, not looked at. The order of a tool loop (a result for
 * every call) is checked with the tools, in extras/openai/tools.ts.
 */
import { invalidParam } from '../errors.js';
import { describe, isObject, optionalEnum, optionalString, rejectUnknownFields, required, type JsonObject } from '../validate.js';

/** A message role (docs/service-api.md, "The request", and the OpenAI roles clients send today). */
export const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'] as const;

/** One message of the conversation, its content as text. */
export interface ChatMessage {
  role: (typeof ROLES)[number];
  content: string;
}

const MESSAGE_FIELDS = ['role', 'content', 'name', 'tool_calls', 'tool_call_id', 'refusal'];

/** The text of `content`: a string, or the text parts of an array joined by newlines. */
function contentText(value: unknown, at: string): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value) || value.length === 0) {
    throw invalidParam(`${at}.content`, `${at}.content must be a string or a non-empty array of content parts; got ${describe(value)}`, 'invalid_type');
  }
  const texts: string[] = [];
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
      rejectUnknownFields(part, ['type', 'image_url'], `${where}.`);
      const image = required(part, 'image_url', `${where}.image_url`);
      if (!isObject(image) || typeof image.url !== 'string' || image.url === '') {
        throw invalidParam(`${where}.image_url.url`, `${where}.image_url must be an object with a url; got ${describe(image)}`, 'invalid_type');
      }
      checkImageUrl(image.url, `${where}.image_url.url`);
    }
  });
  return texts.join('\n');
}

/** The image formats OpenAI reads from a message. */
const IMAGE_DATA_URL = /^data:image\/(?:png|jpeg|jpg|gif|webp);base64,([A-Za-z0-9+/]+={0,2})$/;

/**
 * An image part's URL, as OpenAI takes it: http(s), not fetched here (the emulator does not look
 * at images), or a base64 `data:` URL of a PNG, JPEG, GIF or WebP, which must decode: a script
 * that builds it wrong (no `;base64`, a file path, text that is not base64) is told so here.
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

function parseToolCalls(value: JsonObject, at: string): void {
  const calls = value.tool_calls;
  if (calls === undefined || calls === null) return;
  const ok = Array.isArray(calls) && calls.every((call: unknown) => isObject(call) && typeof call.id === 'string' && isObject(call.function) && typeof call.function.name === 'string');
  if (!ok) throw invalidParam(`${at}.tool_calls`, `${at}.tool_calls must be an array of {id, type: "function", function: {name, arguments}}; got ${describe(calls)}`, 'invalid_type');
}

export function parseMessage(value: unknown, index: number): ChatMessage {
  const at = `messages[${index}]`;
  if (!isObject(value)) {
    throw invalidParam(at, `${at} must be an object with role and content; got ${describe(value)}`, 'invalid_type');
  }
  rejectUnknownFields(value, MESSAGE_FIELDS, `${at}.`);
  required(value, 'role', `${at}.role`);
  const role = optionalEnum(value, 'role', ROLES, `${at}.role`) as ChatMessage['role'];
  optionalString(value, 'name', `${at}.name`);
  if (role === 'assistant') parseToolCalls(value, at);
  else if (value.tool_calls !== undefined) rejectUnknownFields(value, MESSAGE_FIELDS.filter((field) => field !== 'tool_calls'), `${at}.`);
  if (role === 'tool') required(value, 'tool_call_id', `${at}.tool_call_id`);
  optionalString(value, 'tool_call_id', `${at}.tool_call_id`);
  // An assistant message that called tools may have no text.
  const toolCallsOnly = role === 'assistant' && Array.isArray(value.tool_calls) && (value.content === null || value.content === undefined);
  // The reply is built from system and user messages; a developer message is a system one.
  const shown = role === 'developer' ? 'system' : role;
  if (toolCallsOnly) return { role: shown, content: '' };
  required(value, 'content', `${at}.content`);
  return { role: shown, content: contentText(value.content, at) };
}
