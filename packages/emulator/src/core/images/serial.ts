/**
 * A queue that runs asynchronous jobs one at a time. Image jobs go through it: the encoders keep
 * the event loop busy for a fraction of a second each, and running several side by side would
 * only stack those pauses while making every job finish later.
 */

/** Runs jobs one after another, in the order they were handed in. */
export interface SerialQueue {
  /** Resolves or rejects as `job` does, once every job handed in before it has settled. */
  run<T>(job: () => Promise<T>): Promise<T>;
}

/** A new, empty queue. */
export function createSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run(job) {
      const result = tail.then(job);
      // A failed job must not stall or fail the ones queued behind it.
      tail = result.catch(() => undefined);
      return result;
    },
  };
}
