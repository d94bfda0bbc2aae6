/**
 * main(argv, io) → exit code. The one place where errors become exit codes; it never calls
 * process.exit, so piped output is flushed before the process ends.
 */
import { CommanderError } from 'commander';
import { ExitCode, exitCodeFor, InterruptedError } from './errors.js';
import { createFactory, type RetryWait } from './factory.js';
import { InterruptRouter } from './interrupts.js';
import type { IO } from './io.js';
import { buildProgram } from './program.js';
import { reportError } from './report-error.js';

export interface MainOptions {
  /** Aborted when the process must stop (SIGTERM, SIGHUP, or Ctrl-C nobody else took). */
  signal?: AbortSignal;
  /** Where Ctrl-C goes; by default nowhere (tests and embedders send their own). */
  interrupts?: InterruptRouter;
  /** How the API client waits before a retry (a test seam: record the delay, skip the wait). */
  retryWait?: RetryWait;
}

/** Run svc with `argv` (the arguments after the program name). */
export async function main(argv: string[], io: IO, options: MainOptions = {}): Promise<number> {
  const factory = createFactory(io, options.retryWait ? { retryWait: options.retryWait } : {});
  const signal = options.signal ?? new AbortController().signal;
  const interrupts = options.interrupts ?? new InterruptRouter(() => {});
  const program = buildProgram({ factory, signal, interrupts });
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
    else await reportError(io, error, factory.loadedApiKey());
    return exitCodeFor(error);
  } finally {
    await factory.dispose();
  }
}
