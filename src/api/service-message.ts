/**
 * Finding the service's own words in an error body, whatever shape the service or a proxy in
 * front of it chose; and reading a body that must be JSON.
 */
import { MalformedResponseError, RejectedError, ServerError, type ApiError } from '../core/errors.js';
import { CONTEXT_EXCEEDED_HINT, isContextExceeded } from './context-exceeded.js';

export interface ServiceMessage {
  /** What the service said, or a description of what came back instead. */
  message: string | undefined;
  /** The service's error code, when a JSON body named one. */
  code: string | undefined;
  /** True when the body was an HTML page: a proxy, gateway or captive portal answered. */
  fromHtml: boolean;
}

const SNIPPET_LENGTH = 300;

function asText(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * The message of a JSON error body, in this order: `error.message`, `error` (a string),
 * `message`, `detail`, `errors[0].message`, `title` (OpenAI, plain APIs, FastAPI, GraphQL-ish
 * and RFC 9457 problem details).
 */
export function messageFromJson(body: unknown): string | undefined {
  const error = field(body, 'error');
  const errors = field(body, 'errors');
  const detail = field(body, 'detail');
  return (
    asText(field(error, 'message')) ??
    asText(error) ??
    asText(field(body, 'message')) ??
    asText(detail) ??
    // FastAPI puts a list of {msg} under detail.
    (Array.isArray(detail) ? asText(field(detail[0], 'msg')) : undefined) ??
    (Array.isArray(errors) ? asText(field(errors[0], 'message')) : undefined) ??
    asText(field(body, 'title'))
  );
}

/** A code given as a string, or as a number (llama.cpp's server puts the HTTP status there). */
function asCode(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : asText(value);
}

function codeFromJson(body: unknown): string | undefined {
  const error = field(body, 'error');
  return asCode(field(error, 'code')) ?? asText(field(error, 'type')) ?? asCode(field(body, 'code'));
}

/**
 * True when a 200 answer (or a stream event) carries an error: an `error` that says something.
 * Several servers send `"error": null` (or an empty one) in every normal answer.
 */
export function hasServiceError(value: unknown): boolean {
  const error = field(value, 'error');
  if (error === undefined || error === null || error === false || error === '') return false;
  return typeof error !== 'object' || Object.keys(error).length > 0;
}

/**
 * Whether an error reported inside a 200 answer or a stream is about the request (exit 4) rather
 * than the service failing (exit 1): a 4xx code (llama.cpp puts the HTTP status it would have
 * sent in `code`), or OpenAI's `invalid_request_error` type. Looked for in `error` when the value
 * wraps it (`{"error": {...}}`), else in the value itself (llama.cpp's `error:` line).
 */
export function isRequestProblem(value: unknown): boolean {
  const inner = field(value, 'error');
  const error = inner !== null && typeof inner === 'object' ? inner : value;
  const code = Number(field(error, 'code'));
  if (Number.isInteger(code) && code >= 400 && code < 500) return true;
  return field(error, 'type') === 'invalid_request_error' || field(error, 'code') === 'invalid_request_error';
}

/** The service's error code of an error value (wrapped in `error` or not), for messages. */
export function errorCodeOf(value: unknown): string | undefined {
  const inner = field(value, 'error');
  return codeFromJson(inner !== null && typeof inner === 'object' ? value : { error: value });
}

function looksLikeHtml(text: string, contentType: string | undefined): boolean {
  return (contentType ?? '').includes('text/html') || /^\s*(<!doctype html|<html)/i.test(text);
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** Extract the service's message from a raw error body. */
export function extractServiceMessage(text: string, contentType: string | undefined): ServiceMessage {
  const trimmed = text.trim();
  if (trimmed === '') return { message: undefined, code: undefined, fromHtml: false };
  if (looksLikeHtml(trimmed, contentType)) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(trimmed)?.[1];
    const clean = title ? decodeEntities(title).replace(/\s+/g, ' ').trim() : '';
    return { message: clean || 'an HTML page', code: undefined, fromHtml: true };
  }
  try {
    const body: unknown = JSON.parse(trimmed);
    const message = messageFromJson(body);
    if (message !== undefined) return { message, code: codeFromJson(body), fromHtml: false };
  } catch {
    // Not JSON: fall through to a snippet of the text.
  }
  const snippet = trimmed.length > SNIPPET_LENGTH ? `${trimmed.slice(0, SNIPPET_LENGTH)}…` : trimmed;
  return { message: snippet, code: undefined, fromHtml: false };
}

/**
 * `text` parsed as JSON, or a MalformedResponseError quoting its start; `what` names it. A
 * byte-order mark some Windows servers put first is not part of the JSON (RFC 8259 §8.1 lets a
 * reader ignore it; JSON.parse does not).
 */
export function parseServiceJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    const snippet = text.trim().slice(0, 120);
    throw new MalformedResponseError(`the service sent ${what} that is not JSON: ${JSON.stringify(snippet)}`);
  }
}

/**
 * An `error` inside a 200 answer or a stream (`data: {"error":…}`, `event: error`, llama.cpp's
 * `error:` line): the service failed (in a stream, after it started), and says so in its own
 * words. A problem with the request (a 4xx code, `invalid_request_error`: a prompt over the
 * context size) is a rejection, exit 4, as the same answer with an HTTP status would be; the
 * rest is the service failing, exit 1. An image answer reports errors the same way.
 */
export function serviceErrorIn(value: unknown, rawData: string, requestId: string | undefined, where: 'answer' | 'stream' | 'stream-start'): ApiError {
  const message = messageFromJson(value) ?? messageFromJson({ error: value }) ?? extractServiceMessage(rawData, undefined).message ?? 'unknown error';
  const details = { status: 0, serviceMessage: message, requestId, code: errorCodeOf(value) };
  const place = where === 'stream' ? ' mid-reply' : where === 'stream-start' ? ' before the reply began' : '';
  const text = `the service reported an error${place}: ${message}`;
  // Words that say the request outgrew the context window make it the request's problem even
  // without a 4xx code (the same request would fail again, and compacting is what helps); with a
  // status in `code` (llama.cpp's), a 5xx stays the service failing.
  const status = /^\d{3}$/.test(details.code ?? '') ? Number(details.code) : 0;
  if (isContextExceeded(status, message, details.code)) return new RejectedError(text, details, { hint: CONTEXT_EXCEEDED_HINT });
  return isRequestProblem(value) ? new RejectedError(text, details) : new ServerError(text, details);
}
