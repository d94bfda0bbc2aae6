/**
 * JSON from outside svc (the service's answers, requests to the emulator, files on disk) is read
 * as `unknown` and checked before use; this is the one check for "a plain object".
 */

/** A parsed JSON object. */
export type JsonObject = Record<string, unknown>;

/** True for a plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
