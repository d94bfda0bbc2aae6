/**
 * OpenAI's rules for a schema sent with `strict: true` (Structured Outputs, for `response_format`
 * and for a function's parameters): the root is an object, and every object schema in it sets
 * `additionalProperties: false` and lists every one of its properties in `required` (an optional
 * field is a required one that may be null). OpenAI refuses a strict schema that breaks them
 * with a 400; so does the emulator, with OpenAI's words, so a script learns it offline. The
 * SDK's own helpers (`zodResponseFormat`, `zodFunction`) write schemas that keep the rules.
 */
import { invalidParam } from '../../core/errors.js';
import { isObject, type JsonObject } from '../../core/validate.js';

/** The path inside the schema as OpenAI prints it, a Python tuple: `()`, `('items',)`, `('properties', 'a')`. */
function contextOf(path: readonly string[]): string {
  if (path.length === 0) return '()';
  const items = path.map((part) => `'${part}'`);
  return path.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
}

function isObjectSchema(node: JsonObject): boolean {
  return node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object')) || isObject(node.properties);
}

/** Every sub-schema of `node` with its path: properties, items, anyOf/oneOf/allOf, and definitions. */
function* children(node: JsonObject): Generator<[unknown, string[]]> {
  if (isObject(node.properties)) for (const [key, value] of Object.entries(node.properties)) yield [value, ['properties', key]];
  if (node.items !== undefined) yield [node.items, ['items']];
  for (const keyword of ['anyOf', 'oneOf', 'allOf']) {
    const list = node[keyword];
    if (Array.isArray(list)) for (const [index, value] of list.entries()) yield [value, [keyword, String(index)]];
  }
  for (const keyword of ['$defs', 'definitions']) {
    const defs = node[keyword];
    if (isObject(defs)) for (const [key, value] of Object.entries(defs)) yield [value, [keyword, key]];
  }
}

/**
 * Throws OpenAI's 400 when `schema`, sent with `strict: true`, breaks a rule. `what` names it
 * as OpenAI does (`response_format 'person'`, `function 'get_weather'`); `param` is the field.
 */
export function checkStrictSchema(schema: JsonObject, what: string, param: string): void {
  const refuse = (detail: string): never => {
    throw invalidParam(param, `Invalid schema for ${what}: ${detail}`, null);
  };
  if (schema.type !== 'object') refuse(`schema must be a JSON Schema of 'type: "object"', got 'type: ${JSON.stringify(schema.type ?? 'None')}'.`);
  const visit = (node: unknown, path: string[]): void => {
    if (!isObject(node)) return;
    if (isObjectSchema(node)) {
      const where = `In context=${contextOf(path)}`;
      if (node.additionalProperties !== false) refuse(`${where}, 'additionalProperties' is required to be supplied and to be false.`);
      const listed = Array.isArray(node.required) ? node.required : [];
      const missing = Object.keys(isObject(node.properties) ? node.properties : {}).find((key) => !listed.includes(key));
      if (missing !== undefined) refuse(`${where}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`);
    }
    for (const [child, step] of children(node)) visit(child, [...path, ...step]);
  };
  visit(schema, []);
}
