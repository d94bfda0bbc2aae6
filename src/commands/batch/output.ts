/**
 * Where the output lines go: a file (appended to, so a rerun continues it) or stdout. Each line
 * is written whole in one write, so a crash leaves at most the line being written cut short,
 * and the next run starts a fresh line after it.
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

/** Lines appended to `path` (created if missing); `hide` takes the key out of each (records.ts keyHider). */
export function fileSink(path: string, shownAs: string, hide?: (json: string) => string): LineSink {
  let fd: number;
  try {
    fd = openSync(path, 'a+');
  } catch (error) {
    throw new SvcError(`cannot write ${shownAs}: ${describeSystemError(error)}; nothing was sent`, { cause: error });
  }
  // A line cut by a crash stays the only damage: the next record starts on a fresh line.
  let prefix = endsMidLine(fd) ? '\n' : '';
  return {
    async write(record) {
      const bytes = Buffer.from(prefix + jsonLine(record, false, hide));
      prefix = '';
      try {
        for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
      } catch (error) {
        throw new SvcError(`cannot write ${shownAs}: ${describeSystemError(error)}`, { hint: 'the lines written so far are kept; rerun the same command to finish', cause: error });
      }
    },
    close: () => closeSync(fd),
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
