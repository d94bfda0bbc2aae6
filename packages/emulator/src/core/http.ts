/**
 * Small HTTP helpers shared by every route: request ids, JSON and error responses, and reading a
 * JSON request body with a size limit.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EmulatorError } from './errors.js';

/**
 * Largest request body accepted; anything longer is refused with 413 before it is parsed. Room for
 * what OpenAI takes in one chat request: images up to 20 MB each, 50 MB in all, sent as base64.
 */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** A fresh request id, `req_` + 24 hex digits, sent back in the `x-request-id` header. */
export function newRequestId(): string {
  return `req_${randomBytes(12).toString('hex')}`;
}

/** Sends `body` as JSON with the given status and any extra headers. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Sends an {@link EmulatorError} in the OpenAI error shape. */
export function sendError(res: ServerResponse, error: EmulatorError): void {
  sendJson(res, error.status, error.toBody(), { ...error.headers });
}

/**
 * Checks the Content-Type is JSON. Service-api.md 4.1 rule 3 requires `application/json`; a
 * charset parameter is fine as long as it is UTF-8, the only encoding JSON may use (RFC 8259 §8.1).
 */
export function assertJsonContentType(req: IncomingMessage): void {
  const header = req.headers['content-type'] ?? '';
  const [mediaType = '', ...params] = header.split(';').map((part) => part.trim().toLowerCase());
  if (mediaType !== 'application/json') {
    const got = header === '' ? 'no Content-Type header' : `Content-Type '${header}'`;
    throw new EmulatorError(400, `The request body must be JSON sent with Content-Type: application/json; got ${got}.`, {
      code: 'invalid_content_type',
    });
  }
  const charset = params.find((p) => p.startsWith('charset='))?.slice('charset='.length).replace(/"/g, '');
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw new EmulatorError(400, `The request body must be UTF-8 encoded JSON; got charset '${charset}'.`, {
      code: 'invalid_content_type',
    });
  }
}

/** The 413 answer; `Connection: close` because the rest of the oversized body is not read. */
function tooLarge(): EmulatorError {
  return new EmulatorError(413, `The request body is larger than the limit of ${MAX_BODY_BYTES} bytes.`, {
    code: 'request_too_large',
    headers: { Connection: 'close' },
  });
}

/** Reads the whole body, refusing (413) as soon as it is known to exceed {@link MAX_BODY_BYTES}. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.off('data', onData);
        // Keep the stream flowing so its data is discarded rather than buffered.
        req.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
    // A client that hangs up mid-body emits 'close' without 'end' (and not always 'error').
    req.once('close', () => reject(new Error('the client closed the connection before the body was complete')));
  });
}

/** Reads and parses a JSON request body: Content-Type, size, UTF-8 and syntax are all checked. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  assertJsonContentType(req);
  const bytes = await readBody(req);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new EmulatorError(400, 'The request body is not valid UTF-8.', { code: 'invalid_json' });
  }
  if (text.trim() === '') {
    throw new EmulatorError(400, 'The request body is empty; send a JSON object.', { code: 'invalid_json' });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new EmulatorError(400, `We could not parse the JSON body of your request: ${detail}`, { code: 'invalid_json' });
  }
}
