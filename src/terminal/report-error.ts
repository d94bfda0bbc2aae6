/**
 * How an error looks on stderr: `svc: error: what failed (HTTP status, request id)` and an indented
 * hint; service text neutralised and the key redacted. Used by main and by the session, which
 * reports an error and carries on. And SVC_DEBUG: request lines and stack traces, the key redacted.
 */
import { switchWord } from '../core/parse-values.js';
import { describeError } from '../core/errors.js';
import type { IO } from './io.js';
import { neutraliseForTerminal } from '../core/terminal-text.js';

/** SVC_DEBUG=1 (or on, true, yes: the switch words of every on/off setting) turns on request lines and stack traces on stderr. */
export function debugEnabled(io: IO): boolean {
  return switchWord(io.env.SVC_DEBUG ?? '') === 'on';
}

const REDACTED = '[redacted]';

/**
 * Remove every occurrence of the key (and any bearer credential) from text meant for the user.
 * The known key goes first, whole, whatever characters it holds; then any other bearer token,
 * but not one already redacted, so `(..., Authorization: Bearer [redacted])` keeps its `)`.
 */
export function redact(text: string, key: string | undefined): string {
  const out = key && key.length >= 4 ? text.split(key).join(REDACTED) : text;
  return out.replace(/(Bearer\s+)(?!\[redacted\](?:[\s"',)]|$))[^\s"',]+/gi, `$1${REDACTED}`);
}

/** A debug logger bound to the IO; a no-op unless SVC_DEBUG is set. */
export function debugLogger(io: IO, key?: () => string | undefined): ((line: string) => void) | undefined {
  if (!debugEnabled(io)) return undefined;
  return (line) => io.stderr.write(`svc debug: ${redact(line, key?.())}\n`);
}

/**
 * chalk paints the one coloured word of stderr talk, and is loaded only here: an error on a
 * colour terminal. The reply renderer has its own SGR palette (render/style.ts) because it styles
 * cell by cell and must compare, merge and switch styles between neighbouring cells (styles as
 * bit flags), which chalk, a string wrapper, does not model.
 */
async function paintError(io: IO): Promise<(text: string) => string> {
  if (!io.colorEnabled) return (text) => text;
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level: 1 });
  return (text) => chalk.red(text);
}

export async function reportError(io: IO, error: unknown, key: string | undefined): Promise<void> {
  const lines = describeError(error);
  if (lines.length > 0) {
    const red = await paintError(io);
    // Service messages are untrusted text: no escape sequences reach the terminal, ever.
    const [first, ...rest] = lines.map((line) => neutraliseForTerminal(redact(line, key)));
    // `svc:` first, as on every line svc writes to stderr, so a script's log says which tool spoke.
    io.stderr.write(`svc: ${red('error:')} ${first}\n${rest.map((line) => `  ${line}\n`).join('')}`);
  }
  if (debugEnabled(io) && error instanceof Error && error.stack) {
    const causeStack = error.cause instanceof Error && error.cause.stack ? `\ncaused by: ${error.cause.stack}` : '';
    io.stderr.write(`${redact(`${error.stack}${causeStack}`, key)}\n`);
  }
}
