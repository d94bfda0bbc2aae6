/**
 * GET of a URL the service handed out instead of the data itself: many OpenAI-compatible servers
 * answer an image as `data[n].url`. Same timeout, retries and proxies as the API calls; redirects
 * followed (at most five); the key sent only to the service's own origin, so a CDN or storage host
 * never sees it. What the URL is shown as leaves out its query: presigned URLs carry tokens there.
 */
import type { Dispatcher } from 'undici';
import { InterruptedError, SvcError } from '../core/errors.js';
import { readErrorBody } from './error-body.js';
import { exchange, type Answer } from './exchange.js';
import { wrapResponse, type ApiResponse } from './response.js';
import { decideRetry, header } from './retry-policy.js';
import { extractServiceMessage } from './service-message.js';
import { networkError, transportErrorCode } from './transport-errors.js';

const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface GetContext {
  dispatcher: Dispatcher;
  timeoutMs: number;
  maxRetries: number;
  userAgent: string;
  /** The key, and the one origin it may be sent to (the service's). */
  key: { value: string; origin: string };
  sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  now: () => number;
  random: () => number;
  debug?: (line: string) => void;
}

/** The URL as shown in messages: no query, no credentials. */
export function shownUrl(url: URL): string {
  // `origin` is "null" for a scheme without one (file:, data:): the URL is shown from its own parts.
  if (url.origin !== 'null') return `${url.origin}${url.pathname}`;
  if (url.protocol === 'data:') return `data:${url.pathname.slice(0, 24)}…`;
  const authority = url.host !== '' || url.protocol === 'file:' ? `//${url.host}` : '';
  return `${url.protocol}${authority}${url.pathname}`;
}

/** A download that the host refused or could not serve. */
export class DownloadError extends SvcError {}

export async function getUrl(address: string, context: GetContext, signal?: AbortSignal): Promise<ApiResponse> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new DownloadError(`the service gave an image URL svc cannot read: ${JSON.stringify(address.slice(0, 80))}`);
  }
  for (let redirects = 0, retriesDone = 0; ; ) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DownloadError(`the image URL ${shownUrl(url)} is not http or https; svc does not fetch it`);
    const shown = shownUrl(url);
    const headers: Record<string, string> = { 'user-agent': context.userAgent, accept: 'image/*, */*;q=0.5' };
    if (url.origin === context.key.origin) headers.authorization = `Bearer ${context.key.value}`;
    context.debug?.(`GET ${shown}${url.search ? '?…' : ''} (attempt ${retriesDone + 1}${headers.authorization ? ', Authorization: Bearer [redacted]' : ', no key: another host'})`);
    let response: Answer;
    try {
      response = await exchange(
        context.dispatcher,
        { origin: url.origin, path: `${url.pathname}${url.search}`, method: 'GET', headers, headersTimeout: context.timeoutMs, bodyTimeout: context.timeoutMs },
        signal,
      );
    } catch (error) {
      if (signal?.aborted) throw new InterruptedError();
      const decision = decideRetry({ retriesDone, maxRetries: context.maxRetries, status: undefined, headers: {}, errorCode: transportErrorCode(error), now: context.now(), random: context.random });
      if (!decision.retry) throw networkError(error, { url: shown, timeoutMs: context.timeoutMs, midResponse: false });
      await context.sleep(decision.delayMs, signal);
      retriesDone += 1;
      continue;
    }
    const status = response.statusCode;
    const responseHeaders = response.headers;
    const location = header(responseHeaders, 'location');
    if (REDIRECTS.has(status) && location !== undefined) {
      response.body.destroy();
      if (++redirects > MAX_REDIRECTS) throw new DownloadError(`the image URL ${shown} redirects more than ${MAX_REDIRECTS} times; svc stopped following it`);
      url = new URL(location, url);
      continue;
    }
    if (status >= 200 && status < 300) return wrapResponse(response, shown, header(responseHeaders, 'x-request-id'), context.timeoutMs);
    const text = await readErrorBody(response.body, responseHeaders);
    const decision = decideRetry({ retriesDone, maxRetries: context.maxRetries, status, headers: responseHeaders, now: context.now(), random: context.random });
    if (decision.retry) {
      await context.sleep(decision.delayMs, signal);
      retriesDone += 1;
      continue;
    }
    const said = extractServiceMessage(text, header(responseHeaders, 'content-type')).message;
    throw new DownloadError(`could not download the image from ${shown}: HTTP ${status}${said ? ` (${said})` : ''}`, {
      hint: status === 403 || status === 404 || status === 410 ? 'image URLs often expire soon after they are made: generate it again' : undefined,
    });
  }
}
