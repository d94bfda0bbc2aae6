/**
 * An answer's body as it arrives: the pieces undici hands over, read as an async iterable by one
 * reader, with the connection paused while the reader is behind by 64 KiB or more.
 *
 * Why not a Node stream (what undici's `request()` gives): svc only ever reads a body with
 * `for await` or `next()`, and a Readable costs every answer its stream state, events and async
 * iterator; a batch reads thousands of answers (exchange.ts has the figures).
 */
import type { Dispatcher } from 'undici';

/** The reader may fall this far behind before the connection is paused (a Readable's default in undici). */
const HIGH_WATER_MARK = 64 * 1024;

type Step = IteratorResult<Uint8Array, undefined>;

export class BodyQueue implements AsyncIterable<Uint8Array>, AsyncIterator<Uint8Array, undefined> {
  readonly #controller: Dispatcher.DispatchController;
  readonly #onSettled: () => void;
  #pieces: Uint8Array[] = [];
  #queuedBytes = 0;
  #ended = false;
  #error: unknown = undefined;
  #destroyed = false;
  #waiting: { resolve: (step: Step) => void; reject: (error: unknown) => void } | undefined;

  /** `onSettled` runs once, when the body ends, fails or is destroyed. */
  constructor(controller: Dispatcher.DispatchController, onSettled: () => void) {
    this.#controller = controller;
    this.#onSettled = onSettled;
  }

  /** A piece from the connection. */
  push(piece: Uint8Array): void {
    if (this.#finished()) return;
    const waiting = this.#waiting;
    if (waiting !== undefined) {
      this.#waiting = undefined;
      waiting.resolve({ value: piece, done: false });
      return;
    }
    this.#pieces.push(piece);
    this.#queuedBytes += piece.length;
    if (this.#queuedBytes >= HIGH_WATER_MARK) this.#controller.pause();
  }

  /** The whole body came. */
  end(): void {
    if (this.#finished()) return;
    this.#ended = true;
    this.#onSettled();
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.resolve({ value: undefined, done: true });
  }

  /**
   * The connection failed (or the user aborted) mid-body. Pieces already here are still read
   * first, then the error: what came is not thrown away.
   */
  fail(error: unknown): void {
    if (this.#finished()) return;
    this.#error = error;
    this.#onSettled();
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.reject(error);
  }

  /** Stop reading: the request is aborted (which frees its connection) unless the body had all come. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#pieces = [];
    const settled = this.#finished();
    this.#ended = true;
    if (!settled) {
      this.#onSettled();
      // undici answers the abort with an error for this request, which nobody reads: the body is gone.
      this.#controller.abort(new Error('svc stopped reading the answer'));
    }
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.resolve({ value: undefined, done: true });
  }

  next(): Promise<Step> {
    const piece = this.#pieces.shift();
    if (piece !== undefined) {
      this.#queuedBytes -= piece.length;
      if (this.#queuedBytes < HIGH_WATER_MARK && this.#controller.paused) this.#controller.resume();
      return Promise.resolve({ value: piece, done: false });
    }
    if (this.#error !== undefined && !this.#destroyed) return Promise.reject(this.#error);
    if (this.#ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
  }

  /** A reader that leaves early (`break` out of `for await`, a throw inside it) stops the body. */
  return(): Promise<Step> {
    this.destroy();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  #finished(): boolean {
    return this.#ended || this.#error !== undefined;
  }
}
