/** Where every request svc sends goes, and the headers it carries. */

/**
 * `{base_url}/v1/...` joining. The base URL may carry a path prefix (a gateway mounting the
 * service under /ai) and a trailing slash. A base URL that already ends in /v1, as OpenAI's own
 * tools expect, is accepted too rather than producing /v1/v1.
 */
export function endpointUrl(baseUrl: string, endpoint: string): string {
  const url = new URL(baseUrl);
  const prefix = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  url.pathname = `${prefix}/v1/${endpoint.replace(/^\/+/, '')}`;
  return url.href;
}

/** Where a request goes: the URL as shown in messages, and the origin and path undici takes. */
export interface Target {
  url: string;
  origin: string;
  path: string;
}

/**
 * The headers of every request svc sends, in one place: the client sends them, and `--dry-run`
 * prints them, so the printed curl command is the request svc would have made.
 */
export function requestHeaders(apiKey: string, userAgent: string): Record<string, string> {
  return {
    authorization: `Bearer ${apiKey}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'user-agent': userAgent,
  };
}
