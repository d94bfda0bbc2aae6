/**
 * Looking at the first bytes of a successful answer before reading it as JSON or SSE, and
 * reading a body whole within a bound. The first bytes say what the answer is whatever its
 * Content-Type claims: `{` or `[` is JSON, `data:` is an event stream, `<` is a page that a
 * proxy, gateway or captive portal put in the service's place.
 */
import { MalformedResponseError } from '../core/errors.js';
import { MAX_ERROR_BODY_BYTES } from './limits.js';
import { extractServiceMessage } from './service-message.js';
import { originNote } from './status-errors.js';

/** Enough of the answer to tell JSON, SSE and HTML apart. */
const HEAD_CHARS = 16;

export interface PeekedBody {
  /** The start of the answer, leading whitespace and byte-order mark left out; '' when it is empty. */
  head: string;
  /** The whole body again, from its first byte. */
  body: AsyncIterable<Uint8Array>;
}

/** What came back is markup, not the service's answer (also in streaming mode, where it would read as no events). */
export class HtmlAnswerError extends MalformedResponseError {}

const LEADING_SPACE = /^[\s\uFEFF]+/;

/** Bytes decoded at first to find the head: a whole answer (or a 64 KiB piece of an image) is not. */
const HEAD_BYTES = 1024;

/**
 * The start of `bytes` as text, leading whitespace left out: decoded a little at a time, so only
 * a long run of whitespace makes it read further. A character cut at the end of a slice turns into
 * U+FFFD, which only ever follows the head's first characters, the ones looked at.
 */
function headOf(bytes: Uint8Array): string {
  for (let end = HEAD_BYTES; ; end *= 4) {
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(end, bytes.length)).toString('utf8').replace(LEADING_SPACE, '');
    if (text.length >= HEAD_CHARS || end >= bytes.length) return text;
  }
}

/** Read the body until its first significant characters have arrived (or it ended). */
export async function peekBody(body: AsyncIterable<Uint8Array>): Promise<PeekedBody> {
  const iterator = body[Symbol.asyncIterator]();
  const held: Uint8Array[] = [];
  let head = '';
  for (;;) {
    const next = await iterator.next();
    if (next.done) break;
    held.push(next.value);
    head = headOf(held.length === 1 ? next.value : Buffer.concat(held));
    if (head.length >= HEAD_CHARS) break;
  }
  return { head, body: replayed(held, iterator) };
}

/**
 * `held`, then the rest of `iterator`: a plain iterator rather than an async generator, which
 * would add a few promises to every piece of every answer (2,000 answers in a batch). It stops
 * as that generator did: a reader that stops while taking the rest stops `iterator` too; one that
 * stops within `held` leaves the answer to response.discard() (so a drained connection is reused).
 */
function replayed(held: Uint8Array[], iterator: AsyncIterator<Uint8Array>): AsyncIterable<Uint8Array> {
  let index = 0;
  let state: 'held' | 'rest' | 'stopped' = 'held';
  const again: AsyncIterator<Uint8Array> = {
    next: () => {
      if (state === 'stopped') return Promise.resolve({ value: undefined, done: true });
      if (index < held.length) return Promise.resolve({ value: held[index++]!, done: false });
      state = 'rest';
      return iterator.next();
    },
    // Once `iterator` is done, a return() still reaches it, as none did from the generator: the
    // bodies here are async generators (response.ts), which ignore a return() after their end.
    return: async (value?: unknown) => {
      const wasReadingRest = state === 'rest';
      state = 'stopped';
      if (wasReadingRest && iterator.return) return iterator.return(value);
      return { value: undefined, done: true };
    },
  };
  return { [Symbol.asyncIterator]: () => again };
}

/** True when the answer is a page rather than data: markup first, or declared HTML and not JSON. */
export function isHtmlAnswer(head: string, contentType: string): boolean {
  return head.startsWith('<') || (contentType.toLowerCase().includes('text/html') && !/^[{[]/.test(head));
}

/**
 * The error for an HTML page in place of the answer, named by its title (read from at most
 * MAX_ERROR_BODY_BYTES of it), with where to look.
 */
export async function htmlAnswerError(body: AsyncIterable<Uint8Array>, baseUrlOrigin: string | undefined): Promise<HtmlAnswerError> {
  const { text } = await readUpTo(body, MAX_ERROR_BODY_BYTES).catch(() => ({ text: '' }));
  return htmlPageError(text, baseUrlOrigin);
}

/** The same error for a page already read (`text`: the page, or its start). */
export function htmlPageError(text: string, baseUrlOrigin: string | undefined): HtmlAnswerError {
  const title = extractServiceMessage(text, 'text/html').message;
  const named = title && title !== 'an HTML page' ? ` ("${title}")` : '';
  return new HtmlAnswerError(`an HTML page${named} came back instead of the service's answer`, {
    hint: `a proxy, gateway or captive portal (a network login page) answered; check HTTPS_PROXY/NO_PROXY and the base URL${originNote(baseUrlOrigin)}`,
  });
}

/**
 * The body as UTF-8 text, reading no more than `limit` bytes; `complete` is false when the body
 * went on beyond it. JSON and SSE are UTF-8 whatever charset a header declares (RFC 8259 §8.1,
 * WHATWG SSE), so the declared charset is not consulted.
 */
export async function readUpTo(body: AsyncIterable<Uint8Array>, limit: number): Promise<{ text: string; complete: boolean }> {
  const pieces: Uint8Array[] = [];
  let length = 0;
  for await (const piece of body) {
    if (length + piece.length > limit) {
      pieces.push(piece.subarray(0, limit - length));
      return { text: Buffer.concat(pieces).toString('utf8'), complete: false };
    }
    pieces.push(piece);
    length += piece.length;
  }
  return { text: Buffer.concat(pieces).toString('utf8'), complete: true };
}
