/**
 * One request and its answer over an undici dispatcher, read by a handler of svc's own.
 *
 * Why not undici's `request()`: it wraps every answer in a Node Readable (with an AsyncResource
 * and an EventTarget listener per request for the signal), and svc only ever reads a body as an
 * async iterable, and that machinery is a sizeable share of a batch's CPU (bench/README.md,
 * "Answers read through undici's dispatch()"). Everything else stays undici's:
 * connections and keep-alive, proxies, HTTP parsing, the header and body timeouts, and the
 * errors (with their `code`s) that transport-errors.ts reads.
 */
import type { Dispatcher } from 'undici';
import { watchAbort } from './abort-watch.js';
import { BodyQueue } from './body-queue.js';
import type { Headers } from './retry-policy.js';

export interface Answer {
  statusCode: number;
  /** Lower-case names; a repeated header as an array (undici's parsing). */
  headers: Headers;
  body: BodyQueue;
}

/**
 * Send a request; resolves with the status and headers once they came (1xx interim answers are
 * skipped), the body still arriving. Rejects with undici's error, or the signal's reason (as
 * undici's `request()` did).
 */
export function exchange(dispatcher: Dispatcher, options: Dispatcher.DispatchOptions, signal?: AbortSignal): Promise<Answer> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    let controller: Dispatcher.DispatchController | undefined;
    let body: BodyQueue | undefined;
    let abortedWith: unknown;
    const stopWatching =
      signal === undefined
        ? () => {}
        : watchAbort(signal, (reason) => {
            abortedWith = reason;
            if (body !== undefined) body.fail(abortedWith);
            else reject(abortedWith);
            // Aborted now if it has a connection; one still queued behind others is aborted when
            // it gets one (onRequestStart), before anything of it is written.
            controller?.abort(abortedWith as Error);
          });
    dispatcher.dispatch(options, {
      onRequestStart(started) {
        controller = started;
        if (abortedWith !== undefined) started.abort(abortedWith as Error);
      },
      onResponseStart(started, statusCode, headers) {
        if (statusCode < 200 || body !== undefined) return;
        body = new BodyQueue(started, stopWatching);
        resolve({ statusCode, headers: headers as Headers, body });
      },
      onResponseData(_controller, piece) {
        body?.push(piece);
      },
      onResponseEnd() {
        if (body === undefined) {
          // Only interim answers and then the end: treat as a connection that closed early.
          stopWatching();
          reject(Object.assign(new Error('the connection closed before an answer'), { code: 'UND_ERR_SOCKET' }));
          return;
        }
        body.end();
      },
      onResponseError(_controller, error) {
        if (body !== undefined) {
          body.fail(error);
          return;
        }
        stopWatching();
        reject(error);
      },
    });
  });
}
