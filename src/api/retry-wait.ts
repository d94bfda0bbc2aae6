/**
 * How a request waits before it is sent again: the wait a retry decided on, cut short by an abort
 * (Ctrl-C, a batch stopping), which then rejects with InterruptedError.
 */
import { InterruptedError } from '../core/errors.js';

export function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new InterruptedError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new InterruptedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
