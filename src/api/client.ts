/**
 * The one HTTP client for both endpoints: JSON POST with bearer auth over undici, retries with
 * backoff, timeouts as "longest silence", and every failure turned into an svc error.
 */
import type { Dispatcher } from 'undici';
import { exchange, type Answer } from './exchange.js';
import { InterruptedError } from '../core/errors.js';
import { readErrorBody } from './error-body.js';
import { advisedWaitMs, decideRetry, header } from './retry-policy.js';
import { extractServiceMessage } from './service-message.js';
import { errorForStatus } from './status-errors.js';
import { closedWhileKeptAlive, networkError, transportErrorCode } from './transport-errors.js';
import type { Proxy } from './proxy-settings.js';
import { wrapResponse, type ApiResponse } from './response.js';
import { downloadFailure, downloadTarget, DownloadError, MAX_REDIRECTS, REDIRECTS } from './get-url.js';
import { endpointUrl, requestHeaders, type Target } from './url.js';

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

/** One request as the loop sends it. */
interface Outgoing {
  method: 'POST' | 'GET';
  target: Target;
  payload?: string | undefined;
  /**
   * A URL the service handed out (an image as `data[n].url`): redirects are followed, the key
   * goes only to the service's own origin, and a refusal is the download's, not the API's.
   */
  download?: boolean;
}

export class ApiClient {
  readonly #options: ClientOptions;
  /**
   * Worked out once per endpoint, not per request: a batch sends thousands of requests, and two
   * URL parses and a header object each would be a measurable share of its time (bench/README.md).
   */
  readonly #targets = new Map<string, Target>();
  readonly #headers: Record<string, string>;
  /** The one origin the key is sent to: the service's. */
  readonly #keyOrigin: string;

  constructor(options: ClientOptions) {
    this.#options = options;
    this.#headers = requestHeaders(options.apiKey, options.userAgent);
    this.#keyOrigin = new URL(endpointUrl(options.baseUrl, 'models')).origin;
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
   * GET a URL the service handed out (an image as `data[n].url`), through the same loop as the
   * API calls (timeout, retries and their notices, a shared pause, proxies), following redirects.
   * The key goes only to the service's own origin: an image host elsewhere never sees it.
   */
  async get(url: string, signal?: AbortSignal): Promise<ApiResponse> {
    return this.#send({ method: 'GET', target: downloadTarget(url), download: true }, signal);
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
    return this.#send({ method: 'POST', target: this.#target(endpoint), payload: JSON.stringify(body) }, signal);
  }

  /** GET `/v1/<endpoint>` (the model list), with the same retries and errors as a POST. */
  async getEndpoint(endpoint: string, signal?: AbortSignal): Promise<ApiResponse> {
    return this.#send({ method: 'GET', target: this.#target(endpoint) }, signal);
  }

  /**
   * GET `url`, a page of the service's own server that svc reads by the way (llama-server's
   * `/props` at its root, the model list for a model's window): sent once, with no retries or
   * retry notices and `timeoutMs` as its whole budget, so a server without it costs the user
   * nothing noticeable. The key goes with it: `url` must be on the service's own origin. Failures
   * are thrown as for any request; the caller decides what they mean (usually: not known).
   */
  async lookUp(url: string, timeoutMs: number, signal?: AbortSignal): Promise<ApiResponse> {
    const { origin, pathname, search } = new URL(url);
    if (origin !== this.#keyOrigin) throw new Error(`svc looks up only the service's own pages, not ${origin}`);
    const budget = AbortSignal.timeout(timeoutMs);
    const once = new ApiClient({ ...this.#options, timeoutMs, maxRetries: 0, onRetry: undefined, pause: undefined });
    return once.#send({ method: 'GET', target: { url, origin, path: `${pathname}${search}` } }, signal ? AbortSignal.any([signal, budget]) : budget);
  }

  /** The headers of one attempt at `target`: the API's, or a download's, which carry the key only to the service. */
  #headersFor(request: Outgoing, target: Target): Record<string, string> {
    if (!request.download) return this.#headers;
    const headers: Record<string, string> = { 'user-agent': this.#options.userAgent, accept: 'image/*, */*;q=0.5' };
    if (target.origin === this.#keyOrigin) headers.authorization = this.#headers.authorization!;
    return headers;
  }

  /**
   * The one request loop: every request svc sends goes through it, and it alone decides what is
   * retried (retry-policy.ts), tells of retries, and holds a pause the service asked for.
   */
  async #send(request: Outgoing, signal: AbortSignal | undefined): Promise<ApiResponse> {
    const options = this.#options;
    const { method, payload } = request;
    const sleep = options.sleep ?? abortableSleep;
    const now = options.now ?? Date.now;
    const random = options.random ?? Math.random;
    let target = request.target;
    let redirects = 0;
    let resentOnNewConnection = false;
    for (let retriesDone = 0; ; ) {
      await options.pause?.wait(signal);
      const headers = this.#headersFor(request, target);
      const key = headers.authorization ? 'Authorization: Bearer [redacted]' : 'no key: another host';
      options.debug?.(`${method} ${target.url}${request.download && target.path.includes('?') ? '?…' : ''} (attempt ${retriesDone + 1}${payload === undefined ? '' : `, ${payload.length} bytes`}, ${key})`);
      // A handed-out URL may be on a host the proxy settings treat otherwise: its failures name no proxy.
      const transport = request.download ? { url: target.url, timeoutMs: options.timeoutMs, midResponse: false } : { url: target.url, timeoutMs: options.timeoutMs, midResponse: false, baseUrlOrigin: options.baseUrlOrigin, proxy: options.proxy };
      let response: Answer;
      try {
        response = await exchange(
          options.dispatcher,
          {
            origin: target.origin,
            path: target.path,
            method,
            headers,
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
        retriesDone += 1;
        options.onRetry?.({ reason: code ?? 'connection failure', delayMs: decision.delayMs, retry: retriesDone, maxRetries: options.maxRetries });
        await sleep(decision.delayMs, signal);
        continue;
      }

      const status = response.statusCode;
      const answerHeaders = response.headers;
      const requestId = header(answerHeaders, 'x-request-id');
      options.debug?.(`HTTP ${status}${requestId ? ` request id ${requestId}` : ''}`);
      const location = header(answerHeaders, 'location');
      if (request.download && REDIRECTS.has(status) && location !== undefined) {
        response.body.destroy();
        if (++redirects > MAX_REDIRECTS) throw new DownloadError(`the image URL ${target.url} redirects more than ${MAX_REDIRECTS} times; svc stopped following it`);
        target = downloadTarget(new URL(location, `${target.origin}${target.path}`).href);
        continue;
      }
      if (status >= 200 && status < 300) return wrapResponse(response, target.url, requestId, options.timeoutMs);

      const text = await readErrorBody(response.body, answerHeaders);
      const decision = decideRetry({ retriesDone, maxRetries: options.maxRetries, status, headers: answerHeaders, now: now(), random });
      if (decision.retry) {
        retriesDone += 1;
        options.onRetry?.({ reason: `HTTP ${status}`, delayMs: decision.delayMs, retry: retriesDone, maxRetries: options.maxRetries });
        // The service asked for a pause (429, or a wait it named): with a shared pause every
        // request waits it out, at the top of the loop; other failures are this request's own.
        const serviceAsked = status === 429 || advisedWaitMs(answerHeaders, now()) !== undefined;
        if (options.pause && serviceAsked) options.pause.hold(decision.delayMs);
        else await sleep(decision.delayMs, signal);
        continue;
      }
      if (request.download) throw downloadFailure(target.url, status, text, answerHeaders);
      throw errorForStatus({
        status,
        service: extractServiceMessage(text, header(answerHeaders, 'content-type')),
        requestId,
        url: target.url,
        retriesDone,
        refusedWaitMs: decision.reason === 'wait-too-long' ? decision.waitMs : undefined,
        baseUrlOrigin: options.baseUrlOrigin,
        body: text,
      });
    }
  }
}

/**
 * How a request waits before it is sent again: the wait a retry decided on, cut short by an abort
 * (Ctrl-C, a batch stopping), which then rejects with InterruptedError.
 */
function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
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
