/**
 * The process entry: wires the real process to main(). Signals become an abort, a closed
 * stdout is a quiet success, and `--version` answers before anything else is loaded.
 */
import { processIO } from './io.js';

async function run(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    const { version } = await import('./version.js');
    process.stdout.write(`${version}\n`);
    return;
  }
  // `svc chat … | head -1`: the reader left; whatever was written is all anyone wants.
  // Without a listener a late EPIPE would crash the process with a stack trace; the commands
  // that write replies notice the closed pipe themselves and stop.
  process.stdout.on('error', () => {});
  const controller = new AbortController();
  let signals = 0;
  const onSignal = (): void => {
    signals += 1;
    // A second Ctrl-C means now: do not wait for a slow clean-up.
    if (signals > 1) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const { main } = await import('./main.js');
  process.exitCode = await main(argv, processIO(), { signal: controller.signal });
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
}

await run();
