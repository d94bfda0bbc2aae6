/**
 * The start of a failed answer's body, read for the service's message only: at most
 * MAX_ERROR_BODY_BYTES, decoded when compressed, and the connection released whatever happens.
 */
import type { Answer } from './exchange.js';
import { readUpTo } from './answer-body.js';
import { codingsToUndo, decodeBody } from './content-encoding.js';
import { MAX_ERROR_BODY_BYTES } from './limits.js';
import { header, type Headers } from './retry-policy.js';

/** A body cut short or undecodable still gives what came before: the status says enough without the rest. */
export async function readErrorBody(body: Answer['body'], headers: Headers): Promise<string> {
  const pieces: Uint8Array[] = [];
  async function* collected(): AsyncGenerator<Uint8Array> {
    for await (const piece of body) {
      pieces.push(piece);
      yield piece;
    }
  }
  try {
    return (await readUpTo(decodeBody(collected(), codingsToUndo(header(headers, 'content-encoding'))), MAX_ERROR_BODY_BYTES)).text;
  } catch {
    // Unknown or broken compression: the raw bytes, which extractServiceMessage shows as a snippet
    // only when they are text.
    return codingsFree(headers) ? Buffer.concat(pieces).toString('utf8') : '';
  } finally {
    body.destroy();
  }
}

function codingsFree(headers: Headers): boolean {
  return (header(headers, 'content-encoding') ?? 'identity').trim().toLowerCase() === 'identity';
}
