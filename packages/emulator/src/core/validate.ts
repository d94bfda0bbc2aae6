/**
 * Field validators shared by the endpoints. Each reads one field of a parsed JSON object and
 * either returns its value (undefined when absent) or throws a 400 naming the field in `param`.
 *
 * `null` counts as absent for optional fields: OpenAI's clients send it for "not set", and the
 * openai SDKs serialise unset options that way in some languages.
 */
import { invalidParam } from './errors.js';

/** A parsed JSON object. */
export type JsonObject = Record<string, unknown>;

/** True for a plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short JSON rendering of a bad value for error messages, cut so a huge value stays readable. */
export function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Throws OpenAI's "Unrecognized request argument" 400 for the first key not in `allowed`. */
export function rejectUnknownFields(object: JsonObject, allowed: readonly string[], prefix = ''): void {
  const unknown = Object.keys(object).find((key) => !allowed.includes(key));
  if (unknown !== undefined) {
    const param = `${prefix}${unknown}`;
    throw invalidParam(param, `Unrecognized request argument supplied: ${param}`, 'unknown_parameter');
  }
}

/** Whether an optional field is given: present and not null. */
export function isSet(object: JsonObject, name: string): boolean {
  return Object.hasOwn(object, name) && object[name] !== null;
}

/** The raw value of an optional field: undefined when missing or null. */
function raw(object: JsonObject, name: string): unknown {
  return isSet(object, name) ? object[name] : undefined;
}

/** A required field's value; throws `missing_required_parameter` when missing or null. */
export function required(object: JsonObject, name: string, param = name): unknown {
  const value = raw(object, name);
  if (value === undefined) throw invalidParam(param, `Missing required parameter: '${param}'.`, 'missing_required_parameter');
  return value;
}

/** An optional string. */
export function optionalString(object: JsonObject, name: string, param = name): string | undefined {
  const value = raw(object, name);
  if (value === undefined || typeof value === 'string') return value;
  throw invalidParam(param, `${param} must be a string; got ${describe(value)}`, 'invalid_type');
}

/** An optional boolean. */
export function optionalBoolean(object: JsonObject, name: string, param = name): boolean | undefined {
  const value = raw(object, name);
  if (value === undefined || typeof value === 'boolean') return value;
  throw invalidParam(param, `${param} must be a boolean (true or false); got ${describe(value)}`, 'invalid_type');
}

/** An optional number in [min, max]. */
export function optionalNumber(object: JsonObject, name: string, min: number, max: number): number | undefined {
  const value = raw(object, name);
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max) return value;
  const code = typeof value === 'number' ? 'invalid_value' : 'invalid_type';
  throw invalidParam(name, `${name} must be a number between ${min} and ${max}; got ${describe(value)}`, code);
}

/** An optional integer of at least `min`. */
export function optionalInteger(object: JsonObject, name: string, min: number): number | undefined {
  const value = raw(object, name);
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= min) return value;
  const code = typeof value === 'number' ? 'invalid_value' : 'invalid_type';
  throw invalidParam(name, `${name} must be an integer of at least ${min}; got ${describe(value)}`, code);
}

/** An optional string that must be one of `choices`. */
export function optionalEnum<T extends string>(object: JsonObject, name: string, choices: readonly T[], param = name): T | undefined {
  const value = raw(object, name);
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as T;
  throw invalidParam(param, `${param} must be one of ${choices.join(', ')}; got ${describe(value)}`,
    typeof value === 'string' ? 'invalid_value' : 'invalid_type');
}
