/**
 * One line of a batch input → the request it asks for, in the OpenAI Batch request format:
 * `{"custom_id", "method": "POST", "url", "body"}`. Anything wrong is a {@link BodyProblem} whose
 * message says what, so the whole file can be listed before anything is sent.
 */
import { withParams, type RequestParams } from '../../core/request-params.js';
import type { ChatRequest } from '../../api/chat-types.js';
import type { ImageRequest } from '../../api/images/generate.js';
import type { ImageFormat } from '../../api/images/formats.js';
import { isObject } from '../../core/json.js';
import { RESERVED } from '../../images/file-names.js';
import { BodyProblem, checkChatBody, checkImageBody, type ChatDefaults, type ImageDefaults } from './body-checks.js';

export type BatchRequest =
  | { customId: string; kind: 'chat'; body: ChatRequest }
  | { customId: string; kind: 'image'; body: ImageRequest; format: ImageFormat };

export interface RequestDefaults {
  chat: ChatDefaults;
  image: ImageDefaults;
  /** Fields for every body that does not set them itself: chat (the `params` setting and --param), image (--param). */
  params?: { chat: RequestParams; image: RequestParams };
  /** A `--prompts` line's message from its text: a role's prompt template (roles/fill-role.ts). */
  wrapPrompt?: (text: string) => string;
}

export const CHAT_URL = '/v1/chat/completions';
export const IMAGE_URL = '/v1/images/generations';
const LINE_FIELDS = ['custom_id', 'method', 'url', 'body'];
/** OpenAI's own bound on custom_id. */
const MAX_CUSTOM_ID = 512;

/**
 * An image's file is `<custom_id>.<ext>`, so an image request's custom_id must be a plain file
 * name everywhere: ASCII letters, digits, `.`, `_`, `-`, starting with a letter or digit (no
 * hidden files, no `..`, no separators), not a name Windows reserves, and short enough for any
 * file system once numbered and given its extension. Refused rather than mapped: a mapping could
 * make two ids one file name, and the user could not tell which file is whose.
 */
const SAFE_FILE_STEM = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

function checkImageId(customId: string): void {
  if (!SAFE_FILE_STEM.test(customId) || RESERVED.test(customId.split('.')[0]!.toLowerCase())) {
    throw new BodyProblem(`custom_id ${JSON.stringify(customId)} cannot name an image file: use letters, digits, '.', '_' and '-' (at most 200, starting with a letter or digit)`);
  }
}

/** Parse one non-blank input line. */
export function parseRequestLine(text: string, defaults: RequestDefaults): BatchRequest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BodyProblem('not valid JSON');
  }
  if (!isObject(value)) throw new BodyProblem('not a JSON object');
  const extra = Object.keys(value).find((key) => !LINE_FIELDS.includes(key));
  if (extra !== undefined) throw new BodyProblem(`"${extra}" is not a field of a batch request (custom_id, method, url, body)`);
  const customId = value.custom_id;
  if (typeof customId !== 'string' || customId.trim() === '') throw new BodyProblem('custom_id must be a non-empty string');
  if (customId.length > MAX_CUSTOM_ID) throw new BodyProblem(`custom_id is longer than ${MAX_CUSTOM_ID} characters`);
  if (value.method !== 'POST') throw new BodyProblem(`method must be "POST"; got ${JSON.stringify(value.method ?? null)}`);
  const params = defaults.params ?? { chat: {}, image: {} };
  if (value.url === CHAT_URL) return { customId, kind: 'chat', body: withParams(checkChatBody(value.body, defaults.chat), params.chat, true) };
  if (value.url === IMAGE_URL) {
    checkImageId(customId);
    const { request, format } = checkImageBody(value.body, defaults.image);
    return { customId, kind: 'image', body: withParams(request, params.image, true), format };
  }
  throw new BodyProblem(`url must be "${CHAT_URL}" or "${IMAGE_URL}"; got ${JSON.stringify(value.url ?? null)}`);
}

/** A `--prompts` line: a chat request with this one user message, custom_id `line-<n>`. */
export function promptRequest(text: string, lineNumber: number, defaults: RequestDefaults): BatchRequest {
  return { customId: `line-${lineNumber}`, kind: 'chat', body: withParams(checkChatBody({ messages: [{ role: 'user', content: defaults.wrapPrompt ? defaults.wrapPrompt(text) : text }] }, defaults.chat), defaults.params?.chat ?? {}, true) };
}
