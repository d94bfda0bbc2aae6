/**
 * JSON from outside svc (the service's answers, files on disk) is read
 * as `unknown` and checked before use; this is the one check for "a plain object".
 */

/** A parsed JSON object. */
export type JsonObject = Record<string, unknown>;

/** True for a plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * JSON text with what JSON.stringify leaves raw but a terminal may act on written as \u escapes:
 * C1 controls (U+0080 to U+009F, some terminals' CSI and OSC), the line and paragraph separators
 * and the bidirectional overrides. The JSON value is the same.
 */
export function escapeJsonForTerminal(text: string): string {
  return text.replace(/[\u0080-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * `value` as indented JSON and a newline, for a command's stdout: on a terminal with what could
 * drive it escaped (escapeJsonForTerminal: the JSON value is the same), in a pipe as it is.
 */
export function jsonForOutput(value: unknown, isTTY: boolean): string {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  return isTTY ? escapeJsonForTerminal(text) : text;
}
