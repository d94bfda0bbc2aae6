/**
 * Output lines in the OpenAI Batch output format:
 * `{"id", "custom_id", "response": {"status_code", "request_id", "body"}, "error"}`.
 * An answer, even a 4xx or 5xx one, is a `response` with its status and body (and `error: null`);
 * a request that got no readable answer (network, timeout, an answer svc could not read, an image
 * it could not save) has `response: null` and `error: {code, message}`.
 */
import { transportErrorCode } from '../../api/transport-errors.js';
import { randomHex8 } from '../../storage/replace-file.js';
import { ApiError, MalformedResponseError, NetworkError, SvcError } from '../../core/errors.js';

export interface OutputRecord {
  id: string;
  custom_id: string;
  response: { status_code: number; request_id: string | null; body: unknown } | null;
  error: { code: string; message: string } | null;
  /** `--extract`: the answer's fenced code (blocks joined by a blank line), null when it has none. */
  extract?: string | null;
}

/**
 * `batch_req_` and 24 hex digits, as OpenAI names the lines of a batch: 16 random for this run,
 * then a counter, so ids never repeat within a run or (but for a 2^-64 chance) across runs
 * appending to one file, without a call to the random source for every line.
 *
 * The 16 come from Math.random, which V8 seeds from the system's entropy in every process: an id
 * only has to differ from other runs' ids, not be unguessable, and node:crypto would add its
 * loading to every batch's start-up only for this (as for temporary names: storage/replace-file.ts).
 */
const RUN_PREFIX = randomHex8() + randomHex8();
let recordCount = 0;
function recordId(): string {
  recordCount += 1;
  return `batch_req_${RUN_PREFIX}${(recordCount % 0x100000000).toString(16).padStart(8, '0')}`;
}

export function answerRecord(customId: string, status: number, requestId: string | undefined, body: unknown): OutputRecord {
  return { id: recordId(), custom_id: customId, response: { status_code: status, request_id: requestId ?? null, body }, error: null };
}

export function errorRecord(customId: string, code: string, message: string): OutputRecord {
  return { id: recordId(), custom_id: customId, response: null, error: { code, message } };
}

/** The service's error body as JSON when it is JSON, else the OpenAI shape around its message. */
function errorBody(error: ApiError): unknown {
  if (error.body !== undefined) {
    try {
      return JSON.parse(error.body) as unknown;
    } catch {
      // An HTML page or plain text: its message, as svc read it, in the usual shape.
    }
  }
  return { error: { message: error.serviceMessage ?? error.message, type: null, code: error.code ?? null } };
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** The `error.code` of a failure without an answer, in OpenAI's snake_case. */
function failureCode(error: SvcError): string {
  if (error instanceof NetworkError) return TIMEOUT_CODES.has(transportErrorCode(error.cause) ?? '') ? 'timeout' : 'network_error';
  if (error instanceof MalformedResponseError) return 'malformed_response';
  if (error instanceof ApiError) return error.code ?? 'service_error';
  return 'failed';
}

/** The record of a request that failed; the message is svc's own, with its hint. */
export function failureRecord(customId: string, error: SvcError): OutputRecord {
  if (error instanceof ApiError && error.status >= 400) return answerRecord(customId, error.status, error.requestId, errorBody(error));
  return errorRecord(customId, failureCode(error), error.hint ? `${error.message} (${error.hint})` : error.message);
}

const REDACTED = '[redacted]';

/** Takes the key out of text svc writes: a line of results (JSON text), or a failure's words. */
export interface KeyHider {
  json(text: string): string;
  text(text: string): string;
}

/**
 * A service that repeats the key in an error ("bad key sk-…") must not put it into the results
 * file or the summary, as svc's own error lines never show it. Only the key itself is replaced
 * (inside JSON text in its JSON-escaped form), so the service's and the model's other text stays
 * exactly as sent; a key shorter than 4 characters is no secret worth a search of every line.
 */
export function keyHider(key: string | undefined): KeyHider {
  if (key === undefined || key.length < 4) return { json: (text) => text, text: (text) => text };
  const inJson = JSON.stringify(key).slice(1, -1);
  // Looked for first: nearly every line holds no key, and a split and join would copy it anyway.
  const without = (text: string, secret: string): string => (text.includes(secret) ? text.split(secret).join(REDACTED) : text);
  return { json: (text) => without(text, inJson), text: (text) => without(text, key) };
}
