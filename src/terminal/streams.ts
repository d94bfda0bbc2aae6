/**
 * Helpers for Node streams, apart from the IO object (io.ts) that carries them: a stream's pieces
 * as bytes, the whole of it as text, and a write that waits to be taken.
 */
import type { Writable } from 'node:stream';

/** A piece of a stream as bytes (streams with an encoding set hand out strings). */
export function asBytes(piece: unknown): Buffer {
  return typeof piece === 'string' ? Buffer.from(piece) : (piece as Buffer);
}

/** The whole of a stream, as UTF-8 text. */
export async function readAllText(stream: AsyncIterable<unknown>): Promise<string> {
  const pieces: Buffer[] = [];
  for await (const piece of stream) pieces.push(asBytes(piece));
  return Buffer.concat(pieces).toString('utf8');
}

/**
 * Write `text` and wait until the stream has taken it, or reject with why not: for the few lines
 * that are useless if lost (the emulator's address and key). Ordinary output is checked once, at
 * the end of main (stdout-check.ts).
 */
export function writeAndWait(stream: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (error) => (error ? reject(error) : resolve()));
  });
}
