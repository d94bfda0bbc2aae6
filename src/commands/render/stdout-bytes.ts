/**
 * Bytes → stdout with backpressure; a reader that went away (`| head -1`) ends the copy quietly,
 * any other write error is reported once the command stops.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { SvcError } from '../../core/errors.js';

export class StdoutBytes {
  readonly #stdout: Writable;
  #closed = false;
  #failure: Error | undefined;

  constructor(stdout: Writable) {
    this.#stdout = stdout;
    stdout.on('error', this.#onError);
  }

  #onError = (error: NodeJS.ErrnoException): void => {
    this.#closed = true;
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') this.#failure ??= error;
  };

  /** Write without waiting (the renderer's output); see {@link drained}. */
  queue(bytes: string | Buffer): void {
    if (!this.#closed) this.#stdout.write(bytes);
  }

  /** Write and wait for room; false once stdout is closed. */
  async write(bytes: Buffer): Promise<boolean> {
    this.queue(bytes);
    return this.drained();
  }

  /** Wait until stdout can take more; false once it is closed. */
  async drained(): Promise<boolean> {
    if (!this.#closed && this.#stdout.writableNeedDrain) {
      await Promise.race([once(this.#stdout, 'drain'), once(this.#stdout, 'close')]).catch(() => {});
    }
    return !this.#closed;
  }

  /** Throw if the output could not be written (a full disk, not a closed pipe). */
  check(): void {
    if (this.#failure) throw new SvcError(`cannot write the output: ${this.#failure.message}`);
  }

  dispose(): void {
    this.#stdout.off('error', this.#onError);
  }
}
