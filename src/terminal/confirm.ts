/**
 * A yes/no question on the terminal, before something that cannot be undone. Asked on stderr (stdout
 * stays data), answered "no" unless the user types y; @inquirer/prompts is loaded only when a
 * question is asked.
 */
import { Writable } from 'node:stream';
import { InterruptedError } from '../core/errors.js';
import type { IO } from './io.js';

/**
 * stderr as the prompt's output. The prompt ends its output when it is done: Node never ends
 * process.stderr for a pipe, but a stream handed in (a test's) would be, and the lines after the
 * question would be lost; this one passes everything on and is ended alone.
 */
function promptOutput(stderr: IO['stderr']): Writable {
  const terminal = stderr as { isTTY?: boolean; columns?: number; rows?: number };
  const output = new Writable({ write: (chunk, _encoding, done) => void stderr.write(chunk, () => done()) });
  return Object.defineProperties(output, {
    isTTY: { get: () => terminal.isTTY },
    columns: { get: () => terminal.columns },
    rows: { get: () => terminal.rows },
  });
}

/** The answer to `question` (true for yes). Ctrl-C is an interruption (exit 130), not a "no". */
export async function askYesNo(io: IO, question: string): Promise<boolean> {
  const { confirm } = await import('@inquirer/prompts');
  try {
    return await confirm({ message: question, default: false }, { input: io.stdin, output: promptOutput(io.stderr) });
  } catch (error) {
    if ((error as Error).name === 'ExitPromptError') throw new InterruptedError();
    throw error;
  }
}
