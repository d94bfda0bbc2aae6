/**
 * A URL the service handed out instead of the data itself: many OpenAI-compatible servers answer
 * an image as `data[n].url`. The client (client.ts `get`) fetches it through its one request
 * loop; what is particular to such a URL is here: which URLs are fetched at all, how one is shown
 * (without its query: presigned URLs carry tokens there), the redirects followed, and what a
 * refusal from the host says.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { SvcError } from '../core/errors.js';
import type { Target } from './url.js';
import { header } from './retry-policy.js';
import { extractServiceMessage } from './service-message.js';

export const MAX_REDIRECTS = 5;
export const REDIRECTS = new Set([301, 302, 303, 307, 308]);

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

/** Where a handed-out URL is fetched from; only http and https are. */
export function downloadTarget(address: string): Target {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new DownloadError(`the service gave an image URL svc cannot read: ${JSON.stringify(address.slice(0, 80))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new DownloadError(`the image URL ${shownUrl(url)} is not http or https; svc does not fetch it`);
  return { url: shownUrl(url), origin: url.origin, path: `${url.pathname}${url.search}` };
}

/** What a host's refusal of an image URL says, with the host's own words when it gave some. */
export function downloadFailure(shown: string, status: number, body: string, headers: IncomingHttpHeaders): DownloadError {
  const said = extractServiceMessage(body, header(headers, 'content-type')).message;
  return new DownloadError(`could not download the image from ${shown}: HTTP ${status}${said ? ` (${said})` : ''}`, {
    hint: status === 403 || status === 404 || status === 410 ? 'image URLs often expire soon after they are made: generate it again' : undefined,
  });
}
