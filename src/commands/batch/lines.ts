/**
 * Lines of a stream or a file, one at a time, so an input of any size is read in constant memory.
 * A line longer than the bound is reported (not held): a file that is not JSONL at all may have
 * no newline in gigabytes.
 */
import { LineSplitter, linesOfFile, type SplitLine } from '../../storage/line-splitter.js';
import { asBytes } from '../../terminal/streams.js';

export type Line = { number: number; text: string } | { number: number; tooLong: true };

/** Longer than any real request line (a long conversation is a few MiB of JSON). */
export const MAX_REQUEST_LINE_BYTES = 32 * 1024 * 1024;

/** How much of a file one read takes. */
const READ_BYTES = 1024 * 1024;

const utf8 = new TextDecoder('utf-8');

function decoded(line: SplitLine): Line {
  return 'tooLong' in line ? line : { number: line.number, text: utf8.decode(line.bytes).replace(/\r$/, '') };
}

/** The lines of `stream` with their 1-based numbers; a final line without a newline counts. */
export async function* readLines(stream: AsyncIterable<unknown> | Iterable<unknown>, maxBytes = MAX_REQUEST_LINE_BYTES): AsyncGenerator<Line> {
  const splitter = new LineSplitter(maxBytes);
  for await (const chunk of stream) {
    for (const line of splitter.push(asBytes(chunk))) yield decoded(line);
  }
  const last = splitter.end();
  if (last) yield decoded(last);
}

/**
 * The lines of a regular file, read synchronously a megabyte at a time: the same lines as
 * {@link readLines}, without a stream and an asynchronous step for each line. A batch checks its
 * whole input before sending anything, and through a read stream that check would take several
 * times as long, all of it at start-up (bench/README.md, "The batch's input read synchronously").
 */
export function* fileLines(path: string, maxBytes = MAX_REQUEST_LINE_BYTES): Generator<Line> {
  // A buffer of its own: the lines are taken lazily, between the batch's other reads.
  for (const line of linesOfFile(path, maxBytes, Buffer.allocUnsafe(READ_BYTES))) yield decoded(line);
}
