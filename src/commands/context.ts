import type { Factory } from '../factory.js';

/** What every command's action gets: the lazy factory and the run's abort signal (Ctrl-C). */
export interface CommandContext {
  factory: Factory;
  signal: AbortSignal;
}
