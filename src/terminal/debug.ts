import { switchWord } from '../core/parse-values.js';
import type { IO } from './io.js';

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
