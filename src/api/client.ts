/**
 * The one HTTP client for both endpoints: JSON POST with bearer auth over undici, retries with
 * backoff, timeouts as "longest silence", and every failure turned into an svc error.
 */
import type { Dispatcher } from 'undici';
import { exchange, type Answer } from './exchange.js';
import { InterruptedError } from '../core/errors.js';
import { readErrorBody } from './error-body.js';
import { abortableSleep } from './retry-wait.js';
import { advisedWaitMs, decideRetry, header } from './retry-policy.js';
import { requestHeaders } from './request-headers.js';
import { extractServiceMessage } from './service-message.js';
import { errorForStatus } from './status-errors.js';
import { closedWhileKeptAlive, networkError, transportErrorCode } from './transport-errors.js';
import type { Proxy } from './proxy-settings.js';
import { wrapResponse, type ApiResponse } from './response.js';
import { getUrl } from './get-url.js';
import { endpointUrl } from './url.js';

export type { ApiResponse };
export { createDispatcher } from './dispatcher.js';
export { proxyFor, readProxySettings } from './proxy-settings.js';

export interface RetryNotice {
  /** The status that failed, or the connection error's code. */
  reason: string;
  delayMs: number;
  /** 1 for the first retry. */
  retry: number;
  maxRetries: number;
}

/**
 * A wait shared by several requests (svc batch's workers). When the service asks for a pause
 * (a 429, or any retryable answer carrying Retry-After), the client holds the pause instead of
 * sleeping alone, and every request waits on it before it is sent, so the whole pool backs off
 * together rather than each worker finding the limit again by itself.
 */
export interface SharedPause {
  /** Make every request wait at least `ms` from now before it is sent. */
  hold(ms: number): void;
  /** Resolve once no pause is held (at once when none is); reject with InterruptedError on abort. */
  wait(signal: AbortSignal | undefined): Promise<void>;
}

export interface ClientOptions {
  baseUrl: string;
  /** Where the base URL was set ("--base-url", "SVC_BASE_URL", ...), named in hints about it. */
  baseUrlOrigin?: string | undefined;
  /** The proxy requests to the base URL go through (proxy-settings.ts), named when it fails. */
  proxy?: Proxy | undefined;
  apiKey: string;
  userAgent: string;
  /** Longest silence allowed: waiting for headers, or between two pieces of the body. */
  timeoutMs: number;
  maxRetries: number;
  dispatcher: Dispatcher;
  onRetry?: (notice: RetryNotice) => void;
  /** Shared by the requests of one batch; see {@link SharedPause}. */
  pause?: SharedPause | undefined;
  /** Debug lines (SVC_DEBUG=1); never given the key. */
  debug?: (line: string) => void;
  /** Test seams. */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

/** Where one endpoint's requests go: the URL as shown, and the origin and path undici takes. */
interface Target {
  url: string;
  origin: string;
  path: string;
}

export class ApiClient {
  readonly #options: ClientOptions;
  /**
   * Worked out once per endpoint, not per request: a batch sends thousands of requests, and two
   * URL parses and a header object each were a measurable share of its time (bench/README.md).
   */
  readonly #targets = new Map<string, Target>();
  readonly #headers: Record<string, string>;

  constructor(options: ClientOptions) {
    this.#options = options;
    this.#headers = requestHeaders(options.apiKey, options.userAgent);
  }

  #target(endpoint: string): Target {
    let target = this.#targets.get(endpoint);
    if (target === undefined) {
      const url = endpointUrl(this.#options.baseUrl, endpoint);
      const { origin, pathname, search } = new URL(url);
      target = { url, origin, path: `${pathname}${search}` };
      this.#targets.set(endpoint, target);
    }
    return target;
  }

  get baseUrl(): string {
    return this.#options.baseUrl;
  }

  /** Where the base URL was set (`--base-url`, SVC_BASE_URL, the stored setting), for hints. */
  get baseUrlOrigin(): string | undefined {
    return this.#options.baseUrlOrigin;
  }

  /**
   * GET a URL the service handed out (an image as `data[n].url`), with the same timeout, retries
   * and proxies as the API calls, following redirects. The key goes only to the service's own
   * origin: an image host elsewhere never sees it.
   */
  async get(url: string, signal?: AbortSignal): Promise<ApiResponse> {
    const options = this.#options;
    return getUrl(url, {
      dispatcher: options.dispatcher,
      timeoutMs: options.timeoutMs,
      maxRetries: options.maxRetries,
      userAgent: options.userAgent,
      key: { value: options.apiKey, origin: new URL(endpointUrl(options.baseUrl, 'models')).origin },
      sleep: options.sleep ?? abortableSleep,
      now: options.now ?? Date.now,
      random: options.random ?? Math.random,
      ...(options.debug ? { debug: options.debug } : {}),
    }, signal);
  }

  /** The same client (same dispatcher and keep-alive connections) with some options replaced. */
  derive(options: Partial<Pick<ClientOptions, 'onRetry' | 'pause'>>): ApiClient {
    return new ApiClient({ ...this.#options, ...options });
  }

  /**
   * POST `body` as JSON to `/v1/<endpoint>` and return the first 2xx response. Retries happen
   * only here, before any byte of a successful body was handed out, so nothing shown is repeated.
   */
  async post(endpoint: string, body: unknown, signal?: AbortSignal): Promise<ApiResponse> {
    return this.#send('POST', endpoint, JSON.stringify(body), signal);
  }

  /** GET `/v1/<endpoint>` (the model list), with the same retries and errors as a POST. */
  async getEndpoint(endpoint: string, signal?: AbortSignal): Promise<ApiResponse> {
    return this.#send('GET', endpoint, undefined, signal);
  }

  async #send(method: 'POST' | 'GET', endpoint: string, payload: string | undefined, signal: AbortSignal | undefined): Promise<ApiResponse> {
    const options = this.#options;
    const target = this.#target(endpoint);
    const url = target.url;
    const sleep = options.sleep ?? abortableSleep;
    const now = options.now ?? Date.now;
    const random = options.random ?? Math.random;
    const transport = { url, timeoutMs: options.timeoutMs, midResponse: false, baseUrlOrigin: options.baseUrlOrigin, proxy: options.proxy };

    let resentOnNewConnection = false;
    for (let retriesDone = 0; ; retriesDone++) {
      await options.pause?.wait(signal);
      options.debug?.(`${method} ${url} (attempt ${retriesDone + 1}${payload === undefined ? '' : `, ${payload.length} bytes`}, Authorization: Bearer [redacted])`);
      let response: Answer;
      try {
        response = await exchange(
          options.dispatcher,
          {
            origin: target.origin,
            path: target.path,
            method,
            headers: this.#headers,
            ...(payload === undefined ? {} : { body: payload }),
            headersTimeout: options.timeoutMs,
            bodyTimeout: options.timeoutMs,
          },
          signal,
        );
      } catch (error) {
        if (signal?.aborted) throw new InterruptedError();
        if (!resentOnNewConnection && retriesDone < options.maxRetries && closedWhileKeptAlive(error)) {
          // Most likely not the service failing: a retry, but at once and without a notice.
          resentOnNewConnection = true;
          options.debug?.('the service had closed the kept-alive connection as svc sent on it; sending again on a new one');
          continue;
        }
        const code = transportErrorCode(error);
        const decision = decideRetry({ retriesDone, maxRetries: options.maxRetries, status: undefined, headers: {}, errorCode: code, now: now(), random });
        if (!decision.retry) throw networkError(error, transport);
        options.onRetry?.({ reason: code ?? 'connection failure', delayMs: decision.delayMs, retry: retriesDone + 1, maxRetries: options.maxRetries });
        await sleep(decision.delayMs, signal);
        continue;
      }

      const headers = response.headers;
      const requestId = header(headers, 'x-request-id');
      options.debug?.(`HTTP ${response.statusCode}${requestId ? ` request id ${requestId}` : ''}`);
      if (response.statusCode >= 200 && response.statusCode < 300) {
        return wrapResponse(response, url, requestId, options.timeoutMs);
      }

      const text = await readErrorBody(response.body, headers);
      const decision = decideRetry({ retriesDone, maxRetries: options.maxRetries, status: response.statusCode, headers, now: now(), random });
      if (decision.retry) {
        options.onRetry?.({ reason: `HTTP ${response.statusCode}`, delayMs: decision.delayMs, retry: retriesDone + 1, maxRetries: options.maxRetries });
        // The service asked for a pause (429, or a wait it named): with a shared pause every
        // request waits it out, at the top of the loop; other failures are this request's own.
        const serviceAsked = response.statusCode === 429 || advisedWaitMs(headers, now()) !== undefined;
        if (options.pause && serviceAsked) options.pause.hold(decision.delayMs);
        else await sleep(decision.delayMs, signal);
        continue;
      }
      throw errorForStatus({
        status: response.statusCode,
        service: extractServiceMessage(text, header(headers, 'content-type')),
        requestId,
        url,
        retriesDone,
        refusedWaitMs: decision.reason === 'wait-too-long' ? decision.waitMs : undefined,
        baseUrlOrigin: options.baseUrlOrigin,
        body: text,
      });
    }
  }
}
