/**
 * The keyboard of the session: stdin when it is a terminal, otherwise /dev/tty (for
 * `cat notes.md | svc chat -i`, where stdin was the pipe).
 */
import { openSync } from 'node:fs';
import { ReadStream } from 'node:tty';
import { UsageError } from '../../../core/errors.js';
import type { IO } from '../../../terminal/io.js';

export interface TerminalInput {
  stream: ReadStream;
  fd: number;
}

export function openTerminalInput(io: IO): TerminalInput {
  if (!io.stderrIsTTY) throw new UsageError('the interactive session needs a terminal on stderr', { hint: 'give a prompt for a one-shot answer' });
  if (io.stdinKind === 'tty' && io.stdin instanceof ReadStream) return { stream: io.stdin, fd: 0 };
  let fd: number;
  try {
    fd = openSync('/dev/tty', 'r');
  } catch {
    throw new UsageError('-i needs a terminal to go on talking from, and there is none', { hint: 'without -i, the piped text gets a one-shot answer' });
  }
  return { stream: new ReadStream(fd), fd };
}
