/**
 * An HTTP error answer → the svc error that says what happened and what to do about it.
 * The class decides the exit code (errors.ts); this decides the words.
 */
import { ApiError, AuthError, RateLimitError, RejectedError, ServerError, type ServiceErrorDetails } from '../core/errors.js';
import { CONTEXT_EXCEEDED_HINT, isContextExceeded } from './context-exceeded.js';
import type { ServiceMessage } from './service-message.js';

export interface StatusErrorInput {
  status: number;
  service: ServiceMessage;
  requestId: string | undefined;
  /** The URL that was called, to point at a wrong base URL on a 404. */
  url: string;
  /** Retries already made, for the rate-limit and server-error messages. */
  retriesDone: number;
  /** A wait the service asked for that svc will not sit through. */
  refusedWaitMs?: number | undefined;
  /** Where the base URL was set (ClientOptions.baseUrlOrigin), so the hint points there. */
  baseUrlOrigin?: string | undefined;
  /** The start of the error body as text (kept on the error for svc batch's output). */
  body?: string | undefined;
}

const PROXY_HINT = 'an HTML page came back: a proxy, gateway or captive portal answered instead of the service; check the base URL and HTTPS_PROXY/NO_PROXY';

/** ", set by --base-url": where to look, named where the base URL really came from. */
export function originNote(origin: string | undefined): string {
  return origin ? `, set by ${origin}` : '';
}

function retriedNote(retriesDone: number): string {
  return retriesDone === 0 ? '' : ` (after ${retriesDone} ${retriesDone === 1 ? 'retry' : 'retries'})`;
}

/**
 * A 404 that names its own reason, a code other than not-found and no word of a URL or route
 * (a mock server's `no_fixture_match`): the endpoint is there and refused this request, so the
 * base URL is not the thing to check.
 */
function aboutTheRequest(service: ServiceMessage): boolean {
  if (service.fromHtml || service.code === undefined) return false;
  if (/not.?found|^\d+$/i.test(service.code)) return false;
  return !/\b(url|route|path|endpoint|not found)\b/i.test(service.message ?? '');
}

/** A 404 about the model (OpenAI's `model_not_found`, "The model 'x' does not exist"), not the URL. */
function aboutTheModel(service: ServiceMessage): boolean {
  return !service.fromHtml && /model/i.test(`${service.message ?? ''} ${service.code ?? ''}`);
}

/** Build the error for a non-2xx answer. */
export function errorForStatus(input: StatusErrorInput): ApiError {
  const { status, service } = input;
  const details: ServiceErrorDetails = {
    status,
    serviceMessage: service.message,
    requestId: input.requestId,
    code: service.code,
    body: input.body,
  };
  const said = service.message;
  const htmlHint = service.fromHtml ? PROXY_HINT : undefined;
  const waitNote =
    input.refusedWaitMs === undefined ? '' : `; it asks to wait ${Math.ceil(input.refusedWaitMs / 1000)} s, longer than svc waits`;

  if (status === 401) {
    return new AuthError(`the service rejected the API key${said ? `: ${said}` : ''}`, details, {
      hint: htmlHint ?? 'check the key: `svc auth login` stores one, SVC_API_KEY overrides it',
    });
  }
  if (status === 403) {
    return new AuthError(`the service refused access${said ? `: ${said}` : ''}`, details, {
      hint: htmlHint ?? 'the key may lack access to this model or endpoint',
    });
  }
  if (status === 429) {
    return new RateLimitError(`rate limited by the service${retriedNote(input.retriesDone)}${said ? `: ${said}` : ''}${waitNote}`, details, {
      hint: htmlHint ?? 'wait a little and try again, or raise --max-retries',
    });
  }
  if (status >= 500 || status < 400) {
    const what = status >= 500 ? 'the service failed' : `unexpected HTTP status ${status}`;
    return new ServerError(`${what}${retriedNote(input.retriesDone)}${said ? `: ${said}` : ''}${waitNote}`, details, {
      ...(htmlHint ? { hint: htmlHint } : {}),
    });
  }
  if ((status === 404 || status === 405) && !aboutTheModel(service) && !aboutTheRequest(service)) {
    // Not the model the service could not find, so most likely the URL: a base URL without the
    // service behind it (llama.cpp's server answers {"error":{"code":404,"message":"File Not Found"}}
    // for an endpoint it lacks), or a web server that takes no POST there.
    const what = status === 404 ? 'not found' : 'the server does not take this request at';
    // Servers that only chat (llama.cpp's, most local ones) have no image endpoint: the base URL
    // may be right, and the user should hear that too.
    const chatOnly = input.url.endsWith('/images/generations') ? '; or this service makes no images (llama.cpp\'s server, for one, only chats)' : '';
    return new RejectedError(`${what}: ${input.url}${said && !service.fromHtml ? ` (${said})` : ''}`, details, {
      hint: htmlHint ?? `check the base URL${originNote(input.baseUrlOrigin)}: svc appends /v1/... to it${chatOnly}`,
    });
  }
  // Other 4xx: the service's own words are the message (disallowed content is shown as is).
  const hint = htmlHint ?? (isContextExceeded(status, said, service.code) ? CONTEXT_EXCEEDED_HINT : undefined);
  return new RejectedError(said ?? `the service rejected the request`, details, { ...(hint ? { hint } : {}) });
}
