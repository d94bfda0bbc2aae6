/**
 * Did stdout take everything svc printed? One check for every command (data on stdout is the
 * point of most of them): main watches stdout for the whole run and, at the end, waits until
 * what was written has been handed to the system. A reader that went away (`svc chat … | head -1`)
 * is a quiet success (docs/scripting.md); any other write failure (a full disk, a descriptor not open for
 * writing, an I/O error) means output was lost, and that is exit 1 with a message, never exit 0.
 *
 * process.stdout is synchronous on a file (an error is known at once, and the stream is destroyed)
 * and may be asynchronous on a pipe (the error comes with a later callback), so both the stream's
 * `errored` state and its 'error' events are read, after waiting for pending writes.
 */
import type { Writable } from 'node:stream';
import { SvcError } from '../core/errors.js';
import { describeSystemError, errnoCode } from '../core/system-errors.js';

/** The errors that mean the reader of a pipe or socket has gone, not that output was refused. */
const READER_GONE = new Set(['EPIPE', 'ECONNRESET']);

export type StdoutState = { kind: 'ok' } | { kind: 'reader-gone' | 'failed'; error: unknown };

/**
 * What a write error on `stream` means. A write to a stream already closed by an earlier error
 * fails with ERR_STREAM_DESTROYED, which says nothing itself: the earlier error is the story.
 */
export function classifyStdoutError(stream: Writable, error: unknown): StdoutState {
  const cause = errnoCode(error) === 'ERR_STREAM_DESTROYED' ? (stream.errored ?? error) : error;
  const code = errnoCode(cause);
  // Destroyed with no error of its own: closed under us, as a reader leaving does.
  if (code === 'ERR_STREAM_DESTROYED' || (code !== undefined && READER_GONE.has(code))) return { kind: 'reader-gone', error: cause };
  return { kind: 'failed', error: cause };
}

/** True when a command failed with stdout's own write error (a raw one, from a pipeline). */
export function isStdoutError(error: unknown, stdout: StdoutState): boolean {
  if (stdout.kind === 'ok' || error instanceof SvcError) return false;
  const code = errnoCode(error);
  return error === stdout.error || (code !== undefined && (code === errnoCode(stdout.error) || code === 'ERR_STREAM_DESTROYED'));
}

/** The error shown when stdout refused output: what happened, and that output was lost. */
export function stdoutFailure(error: unknown): SvcError {
  return new SvcError(`could not write to stdout: ${describeSystemError(error)}`, {
    hint: 'some of the output was lost; check where stdout goes (a full disk? a descriptor opened read-only?)',
    cause: error,
  });
}

/** Watches stdout over one run of main(); see the top of this file. */
export class StdoutCheck {
  readonly #stream: Writable;
  #first: unknown;
  #disposed = false;

  constructor(stream: Writable) {
    this.#stream = stream;
    // Also keeps an 'error' event without another listener from crashing the process.
    stream.on('error', this.#record);
  }

  #record = (error: unknown): void => {
    if (!this.#disposed) this.#first ??= error;
  };

  /** Waits for writes still pending, then says how stdout fared over the run. */
  async settle(): Promise<StdoutState> {
    const stream = this.#stream;
    // Nothing pending means nothing to wait for: an empty write would itself fail on a descriptor
    // not open for writing, and a command that printed nothing has lost nothing.
    if (!stream.destroyed && stream.writable && stream.writableLength > 0) {
      await new Promise<void>((resolve) => stream.write('', () => resolve()));
    }
    // A failed stream announces its error on a later tick: let it arrive before the listener goes.
    if (stream.destroyed) await new Promise<void>((resolve) => setImmediate(resolve));
    const error = this.#first ?? stream.errored ?? undefined;
    if (error === undefined || error === null) return { kind: 'ok' };
    return classifyStdoutError(stream, error);
  }

  /**
   * Stop recording. The listener stays: a failed stream may announce its error after main has
   * returned, and an 'error' event nobody listens to would crash the process with a stack trace.
   */
  dispose(): void {
    this.#disposed = true;
  }
}
