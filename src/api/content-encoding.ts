/**
 * Answers sent with `Content-Encoding: gzip`, `deflate` or `br` (RFC 9110 §8.4), decoded as they
 * arrive. svc does not ask for compression (a compressing server may hold back a stream's tokens
 * to fill its blocks), but some proxies compress whatever passes through them; undici's
 * `request`, unlike `fetch`, hands the bytes over as they came.
 */
import { pipeline, Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import { MalformedResponseError, SvcError } from '../core/errors.js';

type Coding = 'gzip' | 'deflate' | 'br';

const CODINGS: Record<string, Coding | 'identity'> = { gzip: 'gzip', 'x-gzip': 'gzip', deflate: 'deflate', br: 'br', identity: 'identity' };

/**
 * The codings of a Content-Encoding header, in the order they must be undone (the last one
 * applied first); a coding svc cannot undo is a clear error before anything is read.
 */
export function codingsToUndo(header: string | undefined): Coding[] {
  // Nearly every answer says nothing: no list to build for it (a batch reads thousands).
  if (header === undefined) return [];
  const names = header.split(',').map((name) => name.trim().toLowerCase()).filter((name) => name !== '');
  const codings: Coding[] = [];
  for (const name of names) {
    const coding = CODINGS[name];
    if (coding === undefined) {
      throw new MalformedResponseError(`the answer is compressed with "${name}", which svc cannot read (it reads gzip, deflate and br)`, {
        hint: 'a proxy between svc and the service may be compressing it; check HTTPS_PROXY/NO_PROXY and the base URL',
      });
    }
    if (coding !== 'identity') codings.push(coding);
  }
  return codings.reverse();
}

/**
 * `deflate` is meant to be zlib-wrapped (RFC 9110 §8.4.1.2), but some servers send the raw
 * stream; a zlib header is told by its first byte (compression method 8), as browsers do.
 */
function decoderFor(coding: Coding, firstByte: number | undefined): Transform {
  if (coding === 'gzip') return createGunzip();
  if (coding === 'br') return createBrotliDecompress();
  return firstByte === undefined || (firstByte & 0x0f) === 0x08 ? createInflate() : createInflateRaw();
}

/** The body with its content codings undone; memory stays flat (zlib works piece by piece). */
export function decodeBody(body: AsyncIterable<Uint8Array>, codings: Coding[]): AsyncIterable<Uint8Array> {
  if (codings.length === 0) return body;
  return (async function* decoded(): AsyncGenerator<Uint8Array> {
    const iterator = body[Symbol.asyncIterator]();
    const first = await iterator.next();
    if (first.done) return;
    const rest = { [Symbol.asyncIterator]: () => iterator };
    const source = Readable.from((async function* () {
      yield first.value;
      yield* rest;
    })(), { objectMode: false });
    const decoders = codings.map((coding, index) => decoderFor(coding, index === 0 ? first.value[0] : undefined));
    // pipeline destroys every stage with the first error, so a transport error (already an svc
    // error) comes out of the last decoder as it was.
    pipeline([source, ...decoders], () => {});
    try {
      for await (const piece of decoders.at(-1)! as AsyncIterable<Uint8Array>) yield piece;
    } catch (error) {
      if (error instanceof SvcError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new MalformedResponseError(`the answer could not be decompressed (${codings.join(', ')}): ${reason}`, { cause: error });
    }
  })();
}
