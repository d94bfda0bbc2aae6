/**
 * Lines of a stream, one at a time, so a file of any size is read in constant memory. A line
 * longer than the bound is reported (not held): a file that is not JSONL at all may have no
 * newline in gigabytes.
 */
import { asBytes } from '../../streams.js';

export type Line = { number: number; text: string } | { number: number; tooLong: true };

/** Longer than any real request line (a long conversation is a few MiB of JSON). */
export const MAX_REQUEST_LINE_BYTES = 32 * 1024 * 1024;

const NEWLINE = 0x0a;
const utf8 = new TextDecoder('utf-8');

/** The lines of `stream` with their 1-based numbers; a final line without a newline counts. */
export async function* readLines(stream: AsyncIterable<unknown> | Iterable<unknown>, maxBytes = MAX_REQUEST_LINE_BYTES): AsyncGenerator<Line> {
  let pieces: Buffer[] = [];
  let length = 0;
  let tooLong = false;
  let number = 1;
  const finish = (): Line => {
    const line: Line = tooLong ? { number, tooLong: true } : { number, text: utf8.decode(Buffer.concat(pieces, length)).replace(/\r$/, '') };
    pieces = [];
    length = 0;
    tooLong = false;
    number += 1;
    return line;
  };
  const take = (piece: Buffer): void => {
    if (tooLong) return;
    if (length + piece.length > maxBytes) {
      tooLong = true;
      pieces = [];
      return;
    }
    // A copy: the stream may reuse its buffer for the next read.
    pieces.push(Buffer.from(piece));
    length += piece.length;
  };
  for await (const chunk of stream) {
    const bytes = asBytes(chunk);
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE, start); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
      if (length === 0 && !tooLong && end - start <= maxBytes) {
        // The whole line is in this piece: decoded from it directly, no copy.
        yield { number: number++, text: utf8.decode(bytes.subarray(start, end)).replace(/\r$/, '') };
      } else {
        take(bytes.subarray(start, end));
        yield finish();
      }
      start = end + 1;
    }
    if (start < bytes.length) take(bytes.subarray(start));
  }
  if (length > 0 || tooLong) yield finish();
}
