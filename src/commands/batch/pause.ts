/**
 * The pause every worker of a batch shares: a 429 (or a Retry-After) seen by one request holds
 * them all until the wait the service asked for is over, then they go on together. A later
 * request for a pause extends it; it never shortens one already held.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { SharedPause } from '../../api/client.js';
import { InterruptedError } from '../../core/errors.js';

export class PoolPause implements SharedPause {
  #until = 0;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  hold(ms: number): void {
    this.#until = Math.max(this.#until, this.#now() + ms);
  }

  /** Milliseconds left of the pause, 0 when none is held (for the progress line). */
  remaining(): number {
    return Math.max(0, this.#until - this.#now());
  }

  async wait(signal: AbortSignal | undefined): Promise<void> {
    // Loop: the pause may have been extended while this request slept.
    for (let left = this.remaining(); left > 0; left = this.remaining()) {
      try {
        await sleep(left, undefined, signal ? { signal } : {});
      } catch {
        throw new InterruptedError();
      }
    }
    if (signal?.aborted) throw new InterruptedError();
  }
}
