/**
 * Reply text → stdout: neutralised on a terminal, exact in a pipe, ended with one newline,
 * with backpressure, and a reader that went away (`| head -1`) treated as a quiet success.
 */
import { once } from 'node:events';
import type { IO } from '../../io.js';
import { classifyStdoutError } from '../../stdout-check.js';
import { forOutput } from '../../terminal-text.js';

export class ReplyWriter {
  readonly #io: IO;
  readonly #onClosed: () => void;
  #wroteAny = false;
  #endsWithNewline = false;
  #closed = false;
  #failure: unknown;

  /** `onClosed` is called once when stdout can take no more (EPIPE or another write error). */
  constructor(io: IO, onClosed: () => void) {
    this.#io = io;
    this.#onClosed = onClosed;
    io.stdout.on('error', this.#onError);
  }

  /** True once the reader of stdout has gone. */
  get closed(): boolean {
    return this.#closed;
  }

  /** A write error other than a reader leaving: the output could not be written (exit 1). */
  get failure(): unknown {
    return this.#failure;
  }

  #onError = (error: unknown): void => {
    if (this.#closed) return;
    this.#closed = true;
    const state = classifyStdoutError(this.#io.stdout, error);
    if (state.kind === 'failed') this.#failure = state.error;
    this.#onClosed();
  };

  async write(text: string): Promise<void> {
    if (this.#closed || text === '') return;
    this.#wroteAny = true;
    this.#endsWithNewline = text.endsWith('\n');
    const shown = forOutput(text, this.#io.stdoutIsTTY);
    if (!this.#io.stdout.write(shown)) await this.#drain();
  }

  /** End the reply with a newline unless it already has one; nothing when no text was written. */
  async finish(): Promise<void> {
    if (this.#wroteAny && !this.#endsWithNewline) await this.write('\n');
  }

  /** Stop listening for errors; stdout stays open for whoever writes next. */
  dispose(): void {
    this.#io.stdout.off('error', this.#onError);
  }

  async #drain(): Promise<void> {
    try {
      await once(this.#io.stdout, 'drain');
    } catch {
      // The 'error' listener above has recorded why.
    }
  }
}
