/**
 * Faults on demand, for testing a client's error handling against the emulator
 * (`svc emulator --fail N:STATUS --cut-after N --latency MS`): the Nth API request answers an
 * error status in the OpenAI shape (the body, type and code a real service sends for it, and
 * `retry-after` on a 429 or 503), every chat stream is cut after N chunks (the connection closed
 * without `[DONE]`), and every API answer's first byte waits a given time. Only API requests (chat,
 * images, models: core/router.ts `api`) count: a readiness probe (/health), an image link or a stray
 * path never takes a fault meant for the client under test.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { EmulatorError } from '../core/errors.js';
import type { ApiFaults } from '../core/router.js';

export interface Faults {
  /** API request number (1 = the first API request the emulator gets) → the status it answers. */
  fail: ReadonlyMap<number, number>;
  /** Streams end, cut, after this many chunks. */
  cutAfter: number | undefined;
  /** Milliseconds before the first byte of every API answer. */
  latencyMs: number;
}

export const NO_FAULTS: Faults = { fail: new Map(), cutAfter: undefined, latencyMs: 0 };

/** Statuses `--fail` takes, with the type, code and words OpenAI uses for each. */
const FAILURES: Record<number, { type: string; code: string; message: string }> = {
  400: { type: 'invalid_request_error', code: 'invalid_request', message: 'The request was refused (an error injected by svc emulator --fail).' },
  401: { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided (injected by svc emulator --fail).' },
  403: { type: 'invalid_request_error', code: 'forbidden', message: 'You are not allowed to use this resource (injected by svc emulator --fail).' },
  404: { type: 'invalid_request_error', code: 'not_found', message: 'Not found (injected by svc emulator --fail).' },
  408: { type: 'server_error', code: 'timeout', message: 'The request timed out (injected by svc emulator --fail).' },
  409: { type: 'server_error', code: 'conflict', message: 'The request conflicted with another (injected by svc emulator --fail).' },
  429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached; please try again in 1s (injected by svc emulator --fail).' },
  500: { type: 'server_error', code: 'server_error', message: 'The server had an error while processing your request (injected by svc emulator --fail).' },
  502: { type: 'server_error', code: 'bad_gateway', message: 'Bad gateway (injected by svc emulator --fail).' },
  503: { type: 'server_error', code: 'service_unavailable', message: 'The engine is currently overloaded, please try again later (injected by svc emulator --fail).' },
  504: { type: 'server_error', code: 'gateway_timeout', message: 'Gateway timeout (injected by svc emulator --fail).' },
};

/** The statuses `--fail` takes. */
export const FAILABLE_STATUSES = Object.keys(FAILURES).map(Number);

/** The error request `number` must answer, if `faults` says so. */
function injectedFailure(faults: Faults, number: number): EmulatorError | undefined {
  const status = faults.fail.get(number);
  if (status === undefined) return undefined;
  const failure = FAILURES[status] ?? FAILURES[500]!;
  const headers: Record<string, string> = status === 429 || status === 503 ? { 'retry-after': '1' } : {};
  return new EmulatorError(status, failure.message, { type: failure.type, code: failure.code, headers });
}

/** What the router does to API requests for `faults` (a part left out: none of that fault). */
export function apiFaults(faults: Partial<Faults> = {}): ApiFaults {
  const all = { ...NO_FAULTS, ...faults };
  return {
    async before(number, signal) {
      if (all.latencyMs > 0) await sleep(all.latencyMs, undefined, { signal });
      return injectedFailure(all, number);
    },
    cutAfter: all.cutAfter,
  };
}
