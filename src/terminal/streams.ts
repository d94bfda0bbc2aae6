/**
 * Helpers for Node streams, apart from the IO object (io.ts) that carries them: a stream's pieces
 * as bytes, the whole of it as text, a write that waits to be taken, and writes that wait while
 * the reader is slower and stop when it has gone.
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

/** Text written to `stream`, waiting while it is full; nothing once the reader has left. */
export function textWriter(stream: Writable): (text: string) => Promise<void> {
  return async (text) => {
    if (stream.destroyed) return; // the reader left; main reports how stdout fared
    if (!stream.write(text)) {
      // A failed write (the reader left) brings 'error', and after it no 'drain': wait for either.
      await new Promise<void>((resolve) => {
        const done = (): void => {
          stream.off('drain', done);
          stream.off('close', done);
          stream.off('error', done);
          resolve();
        };
        stream.on('drain', done);
        stream.on('close', done);
        stream.on('error', done);
      });
    }
  };
}

/**
 * Notices when nothing written to `stream` can arrive any more: the reader of a pipe left
 * (EPIPE), or the stream failed or closed. A command printing many lines stops there instead of
 * doing work nobody sees. Read from the stream's events: process.stdout, with an 'error'
 * listener, reports a failed write only as an event (its `errored` stays unset), and only once
 * the event loop has run.
 */
export class OutputWatch {
  readonly #stream: Writable;
  readonly #onGone: (() => void) | undefined;
  #gone = false;
  #error: unknown;

  constructor(stream: Writable, onGone?: () => void) {
    this.#stream = stream;
    this.#onGone = onGone;
    stream.on('error', this.#fail);
    stream.on('close', this.#leave);
  }

  /** True once output can no longer arrive. */
  get gone(): boolean {
    return this.#gone || this.#stream.destroyed;
  }

  /** The first error the stream reported, if any. */
  get error(): unknown {
    return this.#error;
  }

  dispose(): void {
    this.#stream.off('error', this.#fail);
    this.#stream.off('close', this.#leave);
  }

  #fail = (error: unknown): void => {
    this.#error ??= error;
    this.#leave();
  };

  #leave = (): void => {
    if (this.#gone) return;
    this.#gone = true;
    this.#onGone?.();
  };
}

/**
 * Lines for `stream`, gathered into writes of about 16 KiB (ten thousand one-line writes to a
 * pipe cost a system call each), each waiting while the reader is slower. `add` returns false
 * once the reader has gone: the caller stops producing lines. `close` when done.
 */
export class LineOutput {
  readonly #write: (text: string) => Promise<void>;
  readonly #watch: OutputWatch;
  #pending: string[] = [];
  #size = 0;

  constructor(stream: Writable) {
    this.#write = textWriter(stream);
    this.#watch = new OutputWatch(stream);
  }

  /**
   * Gather `line`; false once the reader has left. A promise only when 16 KiB are gathered and
   * written: a listing of 10,000 lines would otherwise wait on a promise per line.
   */
  add(line: string): boolean | Promise<boolean> {
    this.#pending.push(line);
    this.#size += line.length;
    if (this.#size >= 16 * 1024) return this.#flushAndCheck();
    return !this.#watch.gone;
  }

  async #flushAndCheck(): Promise<boolean> {
    await this.flush();
    // A failed write is reported on the event loop: let it arrive (once per 16 KiB) before
    // the caller reads more to print.
    await new Promise((resolve) => setImmediate(resolve));
    return !this.#watch.gone;
  }

  /** Write what is gathered and stop watching. */
  async close(): Promise<void> {
    await this.flush();
    this.#watch.dispose();
  }

  async flush(): Promise<void> {
    if (this.#pending.length === 0) return;
    const text = this.#pending.join('');
    this.#pending = [];
    this.#size = 0;
    await this.#write(text);
  }
}
