/**
 * `--dry-run` on chat, image and batch: nothing is sent and no key is read; the request is
 * printed on stdout as a curl command and the command ends with exit 0. Every check a real run
 * makes before sending is made first, so a dry run that prints is a request svc would send.
 *
 * The curl command has the URL, the headers and the exact JSON body svc would send. The key is
 * never in it: the Authorization header reads `$SVC_API_KEY` when the command runs, so the text
 * can be logged, pasted in a bug report or replayed by a script that has the key in its
 * environment. The body's characters that could act on a terminal are \u-escaped (the same JSON
 * value), since the command may well be shown on one.
 */
import { escapeJsonForTerminal } from '../core/json.js';
import { formatBytes } from '../core/byte-size.js';
import { endpointUrl, requestHeaders } from '../api/url.js';
import { requireBaseUrl, type ResolvedSettings } from '../factory.js';
import type { IO } from '../terminal/io.js';
import { userAgent } from '../core/version.js';
import { API_KEY_ENV } from '../settings/api-key.js';

/** One shell word in single quotes (inside which nothing is special but the quote itself). */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Header names as curl users write them: content-type → Content-Type. */
function headerName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

interface CurlRequest {
  url: string;
  /** The headers as sent; the authorization header's value is replaced by the variable. */
  headers: Record<string, string>;
  body: unknown;
  /** A streamed answer: curl is told not to buffer it (-N), so the events show as they come. */
  stream: boolean;
}

/**
 * An image part's `data:` URL as its type and size (image-input.ts shortDataUrl): megabytes of
 * base64 say nothing on a screen. The command then sends a stand-in, not the picture.
 */
function shortImageUrls(key: string, value: unknown): unknown {
  return key === 'url' && typeof value === 'string' ? shortDataUrl(value) : value;
}

function curlCommand(request: CurlRequest): string {
  // -sS: no progress meter in the way of piped output, but errors still said. --fail-with-body:
  // an HTTP error is curl's exit 22 (as svc's own exit codes tell a script), its body still shown.
  const lines = [`curl -sS --fail-with-body${request.stream ? ' -N' : ''} ${shellQuote(request.url)}`];
  for (const [name, value] of Object.entries(request.headers)) {
    // In double quotes, so the shell puts the key in when the command runs.
    if (name.toLowerCase() === 'authorization') lines.push(`-H "Authorization: Bearer $${API_KEY_ENV}"`);
    else lines.push(`-H ${shellQuote(`${headerName(name)}: ${value}`)}`);
  }
  lines.push(`--data-raw ${shellQuote(escapeJsonForTerminal(JSON.stringify(request.body, shortImageUrls)))}`);
  return lines.join(' \\\n  ');
}

/** The curl command for a POST of `body` to `/v1/<endpoint>` with the settings in use. */
export function dryRunCommand(settings: ResolvedSettings, endpoint: string, body: unknown, stream: boolean): string {
  const url = endpointUrl(requireBaseUrl(settings), endpoint);
  // The key is not read: the header's value is written as $SVC_API_KEY (curlCommand).
  return curlCommand({ url, headers: requestHeaders('', userAgent), body, stream });
}

/** Print one request's curl command; a note on a terminal says how the key gets in. */
export function printDryRun(io: IO, settings: ResolvedSettings, endpoint: string, body: unknown, stream: boolean): void {
  io.stdout.write(`${dryRunCommand(settings, endpoint, body, stream)}\n`);
  noteKeyVariable(io);
}

/**
 * The command reads the key from $SVC_API_KEY when it runs: where that is not set (the key is
 * stored by `svc auth login`, or in another profile), one line says how to set it, without ever
 * showing the key: `read -s` takes it from the keyboard, unseen.
 */
export function noteKeyVariable(io: IO): void {
  if (io.env[API_KEY_ENV]) return;
  io.note(`dry run, nothing sent; the command reads the key from $${API_KEY_ENV}, which is not set here: set it first with  read -rs ${API_KEY_ENV} && export ${API_KEY_ENV}`);
}

/**
 * A `data:` URL as a dry run shows it: its type and the size of what it holds, not the base64
 * ("data:image/png;base64,… (412.3 KiB)"). Anything else is returned as it is.
 */
export function shortDataUrl(url: string): string {
  const match = /^data:([^;,]*)(;base64)?,/i.exec(url);
  if (!match) return url;
  const payload = url.length - match[0].length;
  // Four base64 characters carry three bytes; the padding at the end carries none.
  const padding = match[2] ? (url.endsWith('==') ? 2 : url.endsWith('=') ? 1 : 0) : 0;
  const bytes = match[2] ? Math.floor((payload * 3) / 4) - padding : payload;
  return `${match[0]}… (${formatBytes(bytes)})`;
}
