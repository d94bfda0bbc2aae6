/**
 * The process entry (bin/svc.js loads it unless it could answer --version or --help itself):
 * wires the real process to main(). Signals become an abort.
 */
import { InterruptRouter } from './terminal/interrupts.js';
import { processIO } from './terminal/io.js';

/** Resolves once everything written to `stream` so far has been handed to the system. */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) resolve();
    else stream.write('', () => resolve());
  });
}

async function run(argv: string[]): Promise<void> {
  // Errors on stdout are judged by main (terminal/stdout-check.ts: a reader that left is a quiet
  // success, any other failure is exit 1); this listener only keeps one arriving after main
  // returned from crashing the process with a stack trace.
  process.stdout.on('error', () => {});
  // A stderr that refuses writes (2>/dev/full) has nobody to tell: the exit code says it.
  process.stderr.on('error', () => {});
  const controller = new AbortController();
  const stop = (): void => {
    // A second stop request means now: do not wait for a slow clean-up.
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
  };
  const interrupts = new InterruptRouter(stop);
  const onInterrupt = (): void => interrupts.dispatch();
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);
  const { main } = await import('./main.js');
  process.exitCode = await main(argv, processIO(), { signal: controller.signal, interrupts });
  // Every file svc writes is written synchronously, so once stdout and stderr are flushed there
  // is nothing left to do; leaving now spares the wait undici's idle timers would otherwise
  // keep the process alive for (bench/README.md, "Leaving as soon as stdout and stderr are flushed").
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit();
}

// Not awaited at the top level: the bundle is CommonJS (scripts/bundle.mjs says why). run() ends
// the process itself; it never rejects, since main turns every failure into an exit code.
void run(process.argv.slice(2));
