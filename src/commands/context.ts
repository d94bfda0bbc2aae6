import type { Factory } from '../factory.js';
import type { InterruptRouter } from '../terminal/interrupts.js';

/** What every command's action gets. */
export interface CommandContext {
  factory: Factory;
  /** Aborted when the command must stop: Ctrl-C (unless a handler took it), SIGTERM, SIGHUP. */
  signal: AbortSignal;
  /** Lets a command take Ctrl-C for itself for a while. */
  interrupts: InterruptRouter;
}
