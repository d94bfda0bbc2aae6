/**
 * A request as a ready-to-run curl command (`--dry-run`): the URL, the headers and the exact
 * JSON body svc would send. The key is never in it: the Authorization header reads
 * `$SVC_API_KEY` when the command runs, so the text can be logged, pasted in a bug report or
 * replayed by a script that has the key in its environment. The body's characters that could
 * act on a terminal are \u-escaped (the same JSON value), since the command may well be shown
 * on one.
 */
import { escapeJsonForTerminal } from '../core/json.js';
import { API_KEY_ENV } from '../settings/api-key.js';

/** One shell word in single quotes (inside which nothing is special but the quote itself). */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Header names as curl users write them: content-type → Content-Type. */
function headerName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

export interface CurlRequest {
  url: string;
  /** The headers as sent; the authorization header's value is replaced by the variable. */
  headers: Record<string, string>;
  body: unknown;
  /** A streamed answer: curl is told not to buffer it (-N), so the events show as they come. */
  stream: boolean;
}

export function curlCommand(request: CurlRequest): string {
  // -sS: no progress meter in the way of piped output, but errors still said. --fail-with-body:
  // an HTTP error is curl's exit 22 (as svc's own exit codes tell a script), its body still shown.
  const lines = [`curl -sS --fail-with-body${request.stream ? ' -N' : ''} ${shellQuote(request.url)}`];
  for (const [name, value] of Object.entries(request.headers)) {
    // In double quotes, so the shell puts the key in when the command runs.
    if (name.toLowerCase() === 'authorization') lines.push(`-H "Authorization: Bearer $${API_KEY_ENV}"`);
    else lines.push(`-H ${shellQuote(`${headerName(name)}: ${value}`)}`);
  }
  lines.push(`--data-raw ${shellQuote(escapeJsonForTerminal(JSON.stringify(request.body)))}`);
  return lines.join(' \\\n  ');
}
