/**
 * A successful answer as svc reads it: the body piece by piece with any Content-Encoding undone,
 * and every transport failure while reading turned into an svc error (the user's abort into
 * InterruptedError). Shared by the API calls and the downloads of image URLs.
 */
import { InterruptedError } from '../core/errors.js';
import { codingsToUndo, decodeBody } from './content-encoding.js';
import type { Answer } from './exchange.js';
import { header, type Headers } from './retry-policy.js';
import { networkError, transportErrorCode } from './transport-errors.js';

export interface ApiResponse {
  status: number;
  headers: Headers;
  requestId: string | undefined;
  contentType: string;
  url: string;
  /**
   * The body, read piece by piece, with any Content-Encoding undone; transport failures and
   * undecodable compression come out as svc errors.
   */
  body: AsyncIterable<Uint8Array>;
  /** Stop reading and release the connection. */
  discard(): void;
}

/** Wrap an answer (exchange.ts); `timeoutMs` is named in the message of a body that went silent. */
export function wrapResponse(response: Answer, url: string, requestId: string | undefined, timeoutMs: number): ApiResponse {
  const headers = response.headers;
  const body = response.body;
  let codings: ReturnType<typeof codingsToUndo>;
  try {
    codings = codingsToUndo(header(headers, 'content-encoding'));
  } catch (error) {
    body.destroy();
    throw error;
  }
  return {
    status: response.statusCode,
    headers,
    requestId,
    contentType: header(headers, 'content-type') ?? '',
    url,
    body: decodeBody(transportMapped(body, url, timeoutMs), codings),
    discard: () => body.destroy(),
  };
}

/**
 * The body's pieces, with a failure while reading turned into an svc error: the user's abort into
 * InterruptedError, anything else into a network error that says whether any of the body had
 * come. A plain iterator rather than an async generator, which would add a few promises to every
 * piece of every answer (a batch reads thousands of answers).
 */
function transportMapped(body: Answer['body'], url: string, timeoutMs: number): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      let bodyStarted = false;
      const failed = (error: unknown): never => {
        if (transportErrorCode(error) === 'UND_ERR_ABORTED' || (error as Error).name === 'AbortError') throw new InterruptedError();
        throw networkError(error, { url, timeoutMs, midResponse: true, bodyStarted });
      };
      return {
        next: () =>
          body.next().then((result) => {
            if (result.done !== true && result.value.length > 0) bodyStarted = true;
            return result;
          }, failed),
        return: () => body.return(),
      };
    },
  };
}
