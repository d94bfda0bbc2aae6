/**
 * The pause every worker of a batch shares: a 429 (or a Retry-After) seen by one request holds
 * them all until the wait the service asked for is over, then they go on together: one timer
 * wakes every worker waiting on the pause in the same turn. (With a timer each they would wake
 * apart, and the first awake could send its next request and the one after before the last had
 * woken.) A later request for a pause extends it; it never shortens one already held.
 */
import type { SharedPause } from '../../api/client.js';
import { InterruptedError } from '../../core/errors.js';

/** The timer of the pause held now, and the waiters it will wake. */
interface Alarm {
  until: number;
  timer: NodeJS.Timeout;
  waiters: Set<() => void>;
}

export class PoolPause implements SharedPause {
  #until = 0;
  readonly #now: () => number;
  #alarm: Alarm | undefined;

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
      if (signal?.aborted) throw new InterruptedError();
      await this.#sleep(left, signal);
    }
    if (signal?.aborted) throw new InterruptedError();
  }

  /** Until the alarm of the pause held now goes off; InterruptedError as soon as `signal` aborts. */
  #sleep(left: number, signal: AbortSignal | undefined): Promise<void> {
    const alarm = this.#alarm?.until === this.#until ? this.#alarm : this.#setAlarm(left);
    return new Promise<void>((resolve, reject) => {
      const wake = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        alarm.waiters.delete(wake);
        // Nobody left to wake: the timer would only keep the process waiting (a later waiter
        // gets an alarm of its own).
        if (alarm.waiters.size === 0) this.#clear(alarm);
        reject(new InterruptedError());
      };
      alarm.waiters.add(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * A new alarm, for a new or extended pause. Waiters of an earlier one wake at its time, find the
   * pause extended, and come to this one.
   */
  #setAlarm(left: number): Alarm {
    const waiters = new Set<() => void>();
    const alarm: Alarm = {
      until: this.#until,
      waiters,
      timer: setTimeout(() => {
        this.#clear(alarm);
        for (const wake of waiters) wake();
      }, left),
    };
    this.#alarm = alarm;
    return alarm;
  }

  #clear(alarm: Alarm): void {
    clearTimeout(alarm.timer);
    if (this.#alarm === alarm) this.#alarm = undefined;
  }
}
