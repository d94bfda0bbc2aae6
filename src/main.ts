/**
 * main(argv, io) → exit code. The one place where errors become exit codes; it never calls
 * process.exit, so piped output is flushed before the process ends.
 */
import { CommanderError } from '@commander-js/extra-typings';
import { ExitCode, exitCodeFor, InterruptedError } from './core/errors.js';
import { createFactory, type FactorySeams, type RetryWait } from './factory.js';
import type { OpenTools } from './chat/tool-runner.js';
import { InterruptRouter } from './terminal/interrupts.js';
import type { IO } from './terminal/io.js';
import { buildProgram } from './program.js';
import { reportError } from './terminal/report-error.js';
import { isStdoutError, StdoutCheck, stdoutFailure, type StdoutState } from './terminal/stdout-check.js';

export interface MainOptions {
  /** Aborted when the process must stop (SIGTERM, SIGHUP, or Ctrl-C nobody else took). */
  signal?: AbortSignal;
  /** Where Ctrl-C goes; by default nowhere (tests and embedders send their own). */
  interrupts?: InterruptRouter;
  /** How the API client waits before a retry (a test seam: record the delay, skip the wait). */
  retryWait?: RetryWait;
  /** Where the tools of `svc chat --tools` come from (a test seam: tools of the test's own). */
  openTools?: OpenTools;
}

/** Run svc with `argv` (the arguments after the program name). */
export async function main(argv: string[], io: IO, options: MainOptions = {}): Promise<number> {
  const seams: FactorySeams = { ...(options.retryWait ? { retryWait: options.retryWait } : {}), ...(options.openTools ? { openTools: options.openTools } : {}) };
  const factory = createFactory(io, seams);
  const signal = options.signal ?? new AbortController().signal;
  const interrupts = options.interrupts ?? new InterruptRouter(() => {});
  const program = buildProgram({ factory, signal, interrupts });
  const stdout = new StdoutCheck(io.stdout);
  try {
    let failure: unknown;
    try {
      await program.parseAsync(argv, { from: 'user' });
    } catch (error) {
      failure = error;
    }
    return await conclude(io, failure, await stdout.settle(), factory.loadedApiKey());
  } finally {
    stdout.dispose();
    await factory.dispose();
  }
}

/** The exit code (and message) for how the command ended and how stdout fared. */
async function conclude(io: IO, error: unknown, stdout: StdoutState, key: string | undefined): Promise<number> {
  // A command that tripped over stdout itself (a raw write error, not one of ours) ended because
  // of it: a reader that left is a quiet success, a refused write is the failure to report.
  const causedByStdout = isStdoutError(error, stdout);
  if (error === undefined || causedByStdout || (error instanceof CommanderError && error.exitCode === 0)) {
    // Success (help and --version included) only if the output reached its reader.
    if (stdout.kind !== 'failed') return ExitCode.ok;
    await reportError(io, stdoutFailure(stdout.error), key);
    return ExitCode.failure;
  }
  // Commander printed its own message for a usage error.
  if (error instanceof CommanderError) return ExitCode.usage;
  // Ctrl-C is the user's own doing: a plain note, not an error report.
  if (error instanceof InterruptedError) io.note('interrupted');
  else await reportError(io, error, key);
  return exitCodeFor(error);
}
