/**
 * `response_format`: `text` (the default), `json_object` (the reply is a JSON object) or
 * `json_schema` (the reply is a JSON value valid against the given schema). The emulator makes
 * that JSON itself from the schema, deterministic for the seed, filling strings with the key
 * words of the question: enough for a client's parsing code (the official SDK's `parse()` with
 * a schema) to be tested offline. Supported: object (properties, required, additionalProperties),
 * array (items, minItems, maxItems), string (enum, const, format date/date-time/email/uri),
 * number, integer (minimum, maximum), boolean, null, enum and const anywhere, anyOf/oneOf (the
 * first), type lists (the first that is not null), local `$ref` to `#/$defs/...` or
 * `#/definitions/...`.
 */
import { invalidParam } from '../../core/errors.js';
import type { Rng } from '../random.js';
import { describe, isObject, rejectUnknownFields, required, type JsonObject } from '../../core/validate.js';
import { checkStrictSchema } from './strict-schema.js';

export type ResponseFormat = { type: 'text' } | { type: 'json_object' } | { type: 'json_schema'; name: string; schema: JsonObject };

export function parseResponseFormat(body: JsonObject): ResponseFormat {
  const value = body.response_format;
  if (value === undefined || value === null) return { type: 'text' };
  if (!isObject(value)) throw invalidParam('response_format', `response_format must be an object like {"type": "json_object"}; got ${describe(value)}`, 'invalid_type');
  const type = required(value, 'type', 'response_format.type');
  if (type === 'text' || type === 'json_object') {
    rejectUnknownFields(value, ['type'], 'response_format.');
    return { type };
  }
  if (type !== 'json_schema') {
    throw invalidParam('response_format.type', `response_format.type must be one of text, json_object, json_schema; got ${describe(type)}`, 'invalid_value');
  }
  rejectUnknownFields(value, ['type', 'json_schema'], 'response_format.');
  const spec = required(value, 'json_schema', 'response_format.json_schema');
  if (!isObject(spec)) throw invalidParam('response_format.json_schema', `response_format.json_schema must be an object with name and schema; got ${describe(spec)}`, 'invalid_type');
  rejectUnknownFields(spec, ['name', 'schema', 'strict', 'description'], 'response_format.json_schema.');
  const name = required(spec, 'name', 'response_format.json_schema.name');
  if (typeof name !== 'string' || !/^[\w-]{1,64}$/.test(name)) {
    throw invalidParam('response_format.json_schema.name', `response_format.json_schema.name must be letters, digits, "_" or "-" (at most 64); got ${describe(name)}`, 'invalid_value');
  }
  const schema = spec.schema ?? {};
  if (!isObject(schema)) throw invalidParam('response_format.json_schema.schema', `response_format.json_schema.schema must be a JSON Schema object; got ${describe(schema)}`, 'invalid_type');
  if (spec.strict !== undefined && spec.strict !== null && typeof spec.strict !== 'boolean') {
    throw invalidParam('response_format.json_schema.strict', `response_format.json_schema.strict must be a boolean; got ${describe(spec.strict)}`, 'invalid_type');
  }
  if (spec.strict === true) checkStrictSchema(schema, `response_format '${name}'`, 'response_format');
  return { type: 'json_schema', name, schema };
}

/** `schema` itself, or the definition in `root` its local `$ref` points to (`#/$defs/...`, `#/definitions/...`). */
export function resolveRef(root: JsonObject, schema: JsonObject): JsonObject {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  const defs = match ? root[match[1]!] : undefined;
  const target = isObject(defs) ? defs[decodeURIComponent(match![2]!)] : undefined;
  return isObject(target) ? target : {};
}

/** How deep a schema is followed before the emulator stops (a recursive `$ref`). */
const MAX_DEPTH = 12;

class SchemaValue {
  constructor(
    private readonly root: JsonObject,
    private readonly rng: Rng,
    private readonly words: readonly string[],
  ) {}

  #word(): string {
    return this.words.length > 0 ? this.rng.pick(this.words) : 'example';
  }

  value(input: unknown, depth = 0): unknown {
    if (!isObject(input) || depth > MAX_DEPTH) return null;
    const schema = resolveRef(this.root, input);
    if ('const' in schema) return schema.const;
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
    const alternatives = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
    if (alternatives && alternatives.length > 0) return this.value(alternatives.find((alt) => !(isObject(alt) && alt.type === 'null')) ?? alternatives[0], depth + 1);
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const type = types.find((t) => t !== 'null') ?? types[0];
    switch (type) {
      case 'object':
        return this.#object(schema, depth);
      case 'array':
        return this.#array(schema, depth);
      case 'string':
        return this.#string(schema);
      case 'integer':
        return this.#number(schema, true);
      case 'number':
        return this.#number(schema, false);
      case 'boolean':
        return true;
      case 'null':
        return null;
      default:
        return isObject(schema.properties) ? this.#object(schema, depth) : this.#word();
    }
  }

  #object(schema: JsonObject, depth: number): JsonObject {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const result: JsonObject = {};
    for (const [key, property] of Object.entries(properties)) result[key] = this.value(property, depth + 1);
    // A required key with no schema of its own still gets a value.
    if (Array.isArray(schema.required)) for (const key of schema.required) if (typeof key === 'string' && !(key in result)) result[key] = this.#word();
    return result;
  }

  #array(schema: JsonObject, depth: number): unknown[] {
    const min = typeof schema.minItems === 'number' ? schema.minItems : 1;
    const max = typeof schema.maxItems === 'number' ? schema.maxItems : Math.max(min, 3);
    const count = Math.min(Math.max(min, Math.min(2, max)), 50);
    return Array.from({ length: count }, () => this.value(schema.items ?? {}, depth + 1));
  }

  #string(schema: JsonObject): string {
    if (schema.format === 'date') return '2025-01-01';
    if (schema.format === 'date-time') return '2025-01-01T00:00:00Z';
    if (schema.format === 'email') return `${this.#word()}@example.com`;
    if (schema.format === 'uri') return `https://example.com/${this.#word()}`;
    const text = this.#word();
    const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
    const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
    return text.padEnd(min, 'x').slice(0, max);
  }

  #number(schema: JsonObject, integer: boolean): number {
    const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
    const max = typeof schema.maximum === 'number' ? schema.maximum : min + 100;
    const value = min + this.rng.next() * (max - min);
    return integer ? Math.min(Math.ceil(value), Math.floor(max)) : Math.round(value * 100) / 100;
  }
}

/**
 * A JSON value valid against `schema` (see the top of this file for what is supported); `root`
 * is the whole schema its `$ref`s point into, when `schema` is a part of one.
 */
export function valueFromSchema(schema: JsonObject, rng: Rng, words: readonly string[], root: JsonObject = schema): unknown {
  return new SchemaValue(root, rng, words).value(schema);
}

/**
 * The reply for a JSON response format: for `json_object`, an object with the answer text and
 * its key words; for `json_schema`, a value made from the schema. Undefined for `text`.
 */
export function jsonReply(format: ResponseFormat, prose: string, words: readonly string[], rng: Rng): string | undefined {
  if (format.type === 'text') return undefined;
  if (format.type === 'json_object') return JSON.stringify({ answer: prose, keywords: words.slice(0, 5) });
  return JSON.stringify(valueFromSchema(format.schema, rng, words));
}
