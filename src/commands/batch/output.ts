/**
 * Where the output lines go: a file (appended to, so a rerun continues it) or stdout. Lines are
 * written whole, in order, so a crash leaves at most the line being written cut short, and the
 * next run starts a fresh line after it.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { SvcError } from '../../core/errors.js';
import { escapeJsonForTerminal } from '../../core/json.js';
import { endsMidLine } from '../../storage/jsonl-file.js';
import { describeSystemError } from '../../core/system-errors.js';
import { textWriter } from '../../terminal/streams.js';

export interface LineSink {
  /** Write one record as one line; resolves once the sink can take more. */
  write(record: unknown): Promise<void>;
  close(): void;
}

/**
 * JSON text for one line. JSON.stringify escapes C0 controls but leaves C1 controls (U+0080 to
 * U+009F, some terminals' CSI and OSC) and the bidirectional overrides raw: for a terminal they
 * are escaped too, so a model's text cannot drive the terminal showing the output. The value is
 * the same JSON either way; files and pipes get JSON.stringify's text exactly.
 */
export function jsonLine(record: unknown, forTerminal = false, hide: (json: string) => string = (json) => json): string {
  const text = hide(JSON.stringify(record));
  return `${forTerminal ? escapeJsonForTerminal(text) : text}\n`;
}

/**
 * Lines appended to `path` (created if missing); `hide` takes the key out of each (records.ts keyHider).
 *
 * The records that finish in one turn of the event loop (answers read from several connections
 * at once) go out in one write at the end of that turn, and each write() resolves only once its
 * line is in the file, so a record is never counted done before it is written, and a failure to
 * write reaches the request whose line it was. One write a line would be a system call a record,
 * a measurable share of a batch's time (bench/README.md, "The batch's lines written together").
 */
export function fileSink(path: string, shownAs: string, hide?: (json: string) => string): LineSink {
  let fd: number;
  try {
    fd = openSync(path, 'a+');
  } catch (error) {
    throw new SvcError(`cannot write ${shownAs}: ${describeSystemError(error)}; nothing was sent`, { cause: error });
  }
  // A line cut by a crash stays the only damage: the next record starts on a fresh line.
  let pending = endsMidLine(fd) ? '\n' : '';
  let waiting: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  const flush = (): void => {
    const text = pending;
    const settle = waiting;
    pending = '';
    waiting = [];
    try {
      const bytes = Buffer.from(text);
      for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
    } catch (error) {
      const failure = new SvcError(`cannot write ${shownAs}: ${describeSystemError(error)}`, { hint: 'the lines written so far are kept; rerun the same command to finish', cause: error });
      for (const { reject } of settle) reject(failure);
      return;
    }
    for (const { resolve } of settle) resolve();
  };
  return {
    write(record) {
      const line = jsonLine(record, false, hide);
      return new Promise((resolve, reject) => {
        if (waiting.length === 0) setImmediate(flush);
        pending += line;
        waiting.push({ resolve, reject });
      });
    },
    close: () => {
      // Nothing is left waiting by the pool (each worker awaits its write), but a line must never be dropped.
      if (waiting.length > 0) flush();
      closeSync(fd);
    },
  };
}

/** Lines written to stdout, waiting when the reader is slower than the service. */
export function streamSink(stream: Writable, isTerminal: boolean, hide?: (json: string) => string): LineSink {
  const write = textWriter(stream);
  return {
    write: (record) => write(jsonLine(record, isTerminal, hide)),
    close() {},
  };
}
