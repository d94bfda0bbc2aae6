/**
 * When to retry a failed request and how long to wait, as pure functions (the rules of
 * openai-node's client, with svc's own cap: a wait over 60 s is reported instead of slept through).
 */

/** Response headers as undici gives them. */
export type Headers = Record<string, string | string[] | undefined>;

/** The longest wait svc sits through on the service's say-so. */
export const MAX_ADVISED_WAIT_MS = 60_000;

/** Connection failures that happened before any response: safe to try again. */
const RETRYABLE_CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export function header(headers: Headers, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** 408, 409, 429 and 5xx, unless the service says otherwise with `x-should-retry`. */
export function isRetryableStatus(status: number, headers: Headers): boolean {
  const advice = header(headers, 'x-should-retry');
  if (advice === 'true') return true;
  if (advice === 'false') return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Connection-level errors worth retrying. A DNS name that does not exist, a TLS failure and a
 * timeout are not: the first two will not change in a second, and the timeout already is the
 * longest silence the user allowed, so retrying it would multiply the wait.
 */
export function isRetryableConnectionCode(code: string | undefined): boolean {
  return code !== undefined && RETRYABLE_CONNECTION_CODES.has(code);
}

/**
 * The wait the service asks for: `retry-after-ms` (milliseconds, an OpenAI extension), then
 * `Retry-After` as delay-seconds or an HTTP-date (RFC 9110 §10.2.3). Undefined when absent or
 * unreadable; a date in the past counts as no wait.
 */
export function advisedWaitMs(headers: Headers, now: number): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Number(ms);
  const retryAfter = header(headers, 'retry-after');
  if (retryAfter === undefined) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(retryAfter)) return Number(retryAfter) * 1000;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with jitter: 0.5 s doubling to at most 8 s, less up to 25 %. */
export function backoffMs(retryIndex: number, random: () => number): number {
  const seconds = Math.min(0.5 * 2 ** retryIndex, 8);
  return seconds * (1 - random() * 0.25) * 1000;
}

export type RetryDecision =
  | { retry: true; delayMs: number }
  | { retry: false; reason: 'not-retryable' | 'exhausted' }
  | { retry: false; reason: 'wait-too-long'; waitMs: number };

export interface RetryInput {
  /** How many retries were already made (0 before the first retry). */
  retriesDone: number;
  maxRetries: number;
  /** The status, or undefined for a connection failure before any response. */
  status: number | undefined;
  headers: Headers;
  /** The connection error's code, for failures without a status. */
  errorCode?: string | undefined;
  now: number;
  random: () => number;
}

/** Decide whether to try again, and after how long. */
export function decideRetry(input: RetryInput): RetryDecision {
  const retryable =
    input.status === undefined ? isRetryableConnectionCode(input.errorCode) : isRetryableStatus(input.status, input.headers);
  if (!retryable) return { retry: false, reason: 'not-retryable' };
  const advised = input.status === undefined ? undefined : advisedWaitMs(input.headers, input.now);
  if (advised !== undefined && advised > MAX_ADVISED_WAIT_MS) return { retry: false, reason: 'wait-too-long', waitMs: advised };
  if (input.retriesDone >= input.maxRetries) return { retry: false, reason: 'exhausted' };
  return { retry: true, delayMs: advised ?? backoffMs(input.retriesDone, input.random) };
}
