/**
 * main(argv, io) → exit code. The one place where errors become messages and exit codes;
 * it never calls process.exit, so piped output is flushed before the process ends.
 */
import { CommanderError } from 'commander';
import { debugEnabled, redact } from './debug.js';
import { describeError, ExitCode, exitCodeFor, InterruptedError } from './errors.js';
import { createFactory, type Factory } from './factory.js';
import type { IO } from './io.js';
import { buildProgram } from './program.js';
import { neutraliseForTerminal } from './terminal-text.js';

async function paintError(io: IO): Promise<(text: string) => string> {
  if (!io.colorEnabled) return (text) => text;
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level: 1 });
  return (text) => chalk.red(text);
}

async function reportError(io: IO, factory: Factory, error: unknown): Promise<void> {
  const lines = describeError(error);
  const key = factory.loadedApiKey();
  if (lines.length > 0) {
    const red = await paintError(io);
    // Service messages are untrusted text: no escape sequences reach the terminal, ever.
    const [first, ...rest] = lines.map((line) => neutraliseForTerminal(redact(line, key)));
    io.stderr.write(`${red('error:')} ${first}\n${rest.map((line) => `  ${line}\n`).join('')}`);
  }
  if (debugEnabled(io) && error instanceof Error && error.stack) {
    const causeStack = error.cause instanceof Error && error.cause.stack ? `\ncaused by: ${error.cause.stack}` : '';
    io.stderr.write(`${redact(`${error.stack}${causeStack}`, key)}\n`);
  }
}

export interface MainOptions {
  /** Aborted on Ctrl-C / SIGTERM. */
  signal?: AbortSignal;
}

/** Run svc with `argv` (the arguments after the program name). */
export async function main(argv: string[], io: IO, options: MainOptions = {}): Promise<number> {
  const factory = createFactory(io);
  const signal = options.signal ?? new AbortController().signal;
  const program = buildProgram({ factory, signal });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander printed its own message; help and --version are successes, the rest usage errors.
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    // Ctrl-C is the user's own doing: a plain note, not an error report.
    if (error instanceof InterruptedError) io.stderr.write('svc: interrupted\n');
    else await reportError(io, factory, error);
    return exitCodeFor(error);
  } finally {
    await factory.dispose();
  }
}
