/**
 * Errors below HTTP (connect, DNS, TLS, timeouts, cut connections) → NetworkError with words a
 * user can act on. undici reports these by `code`; Node's own socket errors too.
 */
import { NetworkError } from '../core/errors.js';
import type { Proxy } from './proxy-settings.js';
import { originNote } from './status-errors.js';

/** The error code of a transport error, looking through AggregateError and `cause`. */
export function transportErrorCode(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const record = error as { code?: unknown; cause?: unknown; errors?: unknown[] };
  if (typeof record.code === 'string') return record.code;
  if (Array.isArray(record.errors) && record.errors.length > 0) return transportErrorCode(record.errors[0]);
  return record.cause === undefined ? undefined : transportErrorCode(record.cause);
}

const TLS_CODE = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|SELF_SIGNED|DEPTH_ZERO|HOSTNAME_MISMATCH|UND_ERR_PRX_TLS)/;

export interface TransportContext {
  url: string;
  timeoutMs: number;
  /** True once the response headers arrived: a failure then cuts a reply in the middle. */
  midResponse: boolean;
  /** True once a byte of the body arrived: before that, the reply had not begun. */
  bodyStarted?: boolean;
  /** Where the base URL was set (ClientOptions.baseUrlOrigin), so the hint points there. */
  baseUrlOrigin?: string | undefined;
  /** The proxy the request went through, if any: a failure to connect is then the proxy's. */
  proxy?: Proxy | undefined;
}

/** A connection that failed on the way to the proxy: said so, with the variable that names it. */
function proxyConnectError(code: string, context: TransportContext & { proxy: Proxy }, cause: unknown): NetworkError | undefined {
  const { proxy } = context;
  const reason =
    code === 'ECONNREFUSED' ? 'connection refused'
    : code === 'UND_ERR_CONNECT_TIMEOUT' ? 'no answer to the connection attempt'
    : code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? 'its host was not found (DNS lookup failed)'
    : undefined;
  if (reason === undefined) return undefined;
  return new NetworkError(`could not connect to the proxy ${proxy.shown}: ${reason}`, {
    hint: `requests to ${new URL(context.url).host} go through it (${proxy.variable}); is it running? unset ${proxy.variable}, or list the host in NO_PROXY, to connect directly`,
    cause,
  });
}

/** The answer's headers came, then the connection ended before any of the reply. */
export function closedBeforeReply(url: string, cause?: unknown): NetworkError {
  const { host } = new URL(url);
  return new NetworkError(`the connection to ${host} closed before the reply began`, {
    hint: 'the service (or a proxy in front of it) dropped the request after accepting it; try again',
    ...(cause === undefined ? {} : { cause }),
  });
}

/** Describe a transport failure. */
export function networkError(error: unknown, context: TransportContext): NetworkError {
  const code = transportErrorCode(error);
  const { host, origin } = new URL(context.url);
  const seconds = context.timeoutMs / 1000;
  const detail = error instanceof Error ? error.message : String(error);
  const timeoutHint = 'raise the limit with --timeout or SVC_TIMEOUT (seconds)';
  const throughProxy = context.proxy && code !== undefined ? proxyConnectError(code, { ...context, proxy: context.proxy }, error) : undefined;
  if (throughProxy) return throughProxy;
  switch (code) {
    case 'UND_ERR_HEADERS_TIMEOUT':
      return new NetworkError(`timeout: no answer from ${host} within ${seconds} s`, { hint: timeoutHint, cause: error });
    case 'UND_ERR_BODY_TIMEOUT':
      return new NetworkError(`timeout: ${host} went silent for ${seconds} s in the middle of its answer`, { hint: timeoutHint, cause: error });
    case 'UND_ERR_CONNECT_TIMEOUT':
      return new NetworkError(`could not connect to ${origin}: no answer to the connection attempt`, { cause: error });
    case 'ECONNREFUSED':
      return new NetworkError(`could not connect to ${origin}: connection refused`, {
        hint: `is the service running there? check the base URL${originNote(context.baseUrlOrigin)}`,
        cause: error,
      });
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new NetworkError(`could not find the host ${host} (DNS lookup failed)`, { hint: 'check the base URL and your network', cause: error });
    default:
      break;
  }
  if (code !== undefined && TLS_CODE.test(code)) {
    return new NetworkError(`TLS connection to ${host} failed: ${detail}`, {
      hint: 'for a private certificate authority, point NODE_EXTRA_CA_CERTS at its PEM file',
      cause: error,
    });
  }
  if (context.midResponse && context.bodyStarted === false) return closedBeforeReply(context.url, error);
  if (!context.midResponse && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET')) {
    // The server (or a proxy) took the connection and closed it without a word: a crash, a
    // restart, a load balancer with no backend. svc tried again first, where retries were allowed.
    return new NetworkError(`the connection to ${origin} was closed before any answer`, {
      hint: 'the service (or a proxy in front of it) dropped the request; try again later',
      cause: error,
    });
  }
  if (context.midResponse) {
    return new NetworkError(`stream interrupted: the connection to ${host} was cut before the reply was complete`, { cause: error });
  }
  return new NetworkError(`network error talking to ${origin}: ${detail}${code ? ` (${code})` : ''}`, { cause: error });
}

/**
 * The request went out on a kept-alive connection that the service closed as it arrived: no
 * answer to it, but an earlier answer was read on that connection (undici's socket info counts
 * its bytes). Servers that close after each answer without saying `Connection: close` do this to
 * every other request of a batch, and the request most likely never reached them; so its first
 * retry goes at once, as browsers resend on a stale connection, rather than after a backoff
 * with a notice on stderr. It is still a retry: with --max-retries 0 nothing is sent twice,
 * since a service that read the request and then dropped the connection looks the same.
 */
export function closedWhileKeptAlive(error: unknown): boolean {
  const record = error as { code?: unknown; socket?: { bytesRead?: unknown } } | null;
  return record?.code === 'UND_ERR_SOCKET' && typeof record.socket?.bytesRead === 'number' && record.socket.bytesRead > 0;
}
