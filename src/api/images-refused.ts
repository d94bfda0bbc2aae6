/**
 * A server's refusal of a message with images, told from its answer, so that the error says
 * what happened rather than quoting a schema complaint: servers that take text only check
 * `content` to be a string ("Invalid type for 'messages[0].content': expected a string"), others
 * name the part type they do not know (`image_url`), or say so in words.
 */
import { RejectedError, type ApiError } from '../core/errors.js';
import type { ChatRequest } from './chat-types.js';

/** The request sends content parts (a message with images). */
export function sendsContentParts(request: Pick<ChatRequest, 'messages'>): boolean {
  return request.messages.some((message) => Array.isArray(message.content));
}

/**
 * `content` only as a schema complaint names the parts (`messages[0].content`, `'content'`, "content
 * must be a string"): "Request contains disallowed content", the service's own refusal of a
 * prompt, is about the words, not the images.
 */
const NAMES_PARTS = /messages\[\d+\]\.content|["'`]content["'`]|\bcontent\b[^.]*\b(?:string|type|array|parts?)\b|image_url|\bimages?\b.*\b(?:not supported|unsupported)\b|does not support images?/i;

/** True when `error`, the answer to a request with content parts, refuses them. */
export function refusesImages(error: ApiError): boolean {
  return error.status >= 400 && error.status < 500 && NAMES_PARTS.test(`${error.serviceMessage ?? ''} ${error.code ?? ''}`);
}

/** The refusal in svc's words, the service's after them; exit 4 (rejected). */
export function imagesRefusedError(error: ApiError): RejectedError {
  const said = error.serviceMessage;
  return new RejectedError(`this server or model does not take images${said ? ` (it said: ${said})` : ''}`, { status: error.status, serviceMessage: said, requestId: error.requestId, code: error.code, body: error.body }, {
    hint: 'ask without the images, or choose a model that takes them (--model, /model)',
  });
}
