/**
 * Bytes → lines, holding at most `maxBytes` of any one line: a longer line is reported as too
 * long (and its bytes dropped as they come), never held whole, since a file that is not what it
 * claims may have no newline in gigabytes. Shared by the JSON-lines files svc keeps
 * (jsonl-file.ts) and `svc batch`'s input (commands/batch/lines.ts), both read synchronously
 * through {@link linesOfFile}, and stdin's lines for a batch, which arrive as a stream.
 */
import { closeSync, openSync, readSync } from 'node:fs';

/** One line: its 1-based number, and its bytes (without the newline) or the fact it was too long. */
export type SplitLine = { number: number; bytes: Buffer } | { number: number; tooLong: true };

const NEWLINE = 0x0a;

export class LineSplitter {
  readonly #maxBytes: number;
  #pieces: Buffer[] = [];
  #length = 0;
  #tooLong = false;
  #number = 1;

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /**
   * The lines that `bytes` completes. A line wholly inside `bytes` is a view into it, not a copy:
   * use it before `bytes` is reused (the next read into the same buffer).
   */
  *push(bytes: Buffer): Generator<SplitLine> {
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE, start); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
      if (this.#length === 0 && !this.#tooLong && end - start <= this.#maxBytes) {
        yield { number: this.#number++, bytes: bytes.subarray(start, end) };
      } else {
        this.#take(bytes.subarray(start, end));
        yield this.#finish();
      }
      start = end + 1;
    }
    if (start < bytes.length) this.#take(bytes.subarray(start));
  }

  /** The last line, when the input did not end with a newline. */
  end(): SplitLine | undefined {
    return this.#length > 0 || this.#tooLong ? this.#finish() : undefined;
  }

  #take(piece: Buffer): void {
    if (this.#tooLong) return;
    if (this.#length + piece.length > this.#maxBytes) {
      this.#tooLong = true;
      this.#pieces = [];
      return;
    }
    // A copy: the caller may reuse its buffer for the next read.
    this.#pieces.push(Buffer.from(piece));
    this.#length += piece.length;
  }

  #finish(): SplitLine {
    const line: SplitLine = this.#tooLong ? { number: this.#number, tooLong: true } : { number: this.#number, bytes: Buffer.concat(this.#pieces, this.#length) };
    this.#pieces = [];
    this.#length = 0;
    this.#tooLong = false;
    this.#number += 1;
    return line;
  }
}

/**
 * The lines of the file at `path`, read synchronously into `buffer` (its size a read): a line
 * wholly inside one read is a view into `buffer`, to be used before the next line is asked for
 * (the next read reuses it). The file is closed once the last line is taken or the reader stops.
 */
export function* linesOfFile(path: string, maxBytes: number, buffer: Buffer): Generator<SplitLine> {
  const splitter = new LineSplitter(maxBytes);
  const fd = openSync(path, 'r');
  try {
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) yield* splitter.push(buffer.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  const last = splitter.end();
  if (last) yield last;
}
