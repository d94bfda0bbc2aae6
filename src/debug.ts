import type { IO } from './io.js';

/** SVC_DEBUG=1 turns on request lines and stack traces on stderr. */
export function debugEnabled(io: IO): boolean {
  return io.env.SVC_DEBUG === '1' || io.env.SVC_DEBUG === 'true';
}

/** Remove every occurrence of the key (and any bearer credential) from text meant for the user. */
export function redact(text: string, key: string | undefined): string {
  let out = text.replace(/(Bearer\s+)[^\s"',]+/gi, '$1[redacted]');
  if (key && key.length >= 4) out = out.split(key).join('[redacted]');
  return out;
}

/** A debug logger bound to the IO; a no-op unless SVC_DEBUG is set. */
export function debugLogger(io: IO, key?: () => string | undefined): ((line: string) => void) | undefined {
  if (!debugEnabled(io)) return undefined;
  return (line) => io.stderr.write(`svc debug: ${redact(line, key?.())}\n`);
}
