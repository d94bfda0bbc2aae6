/**
 * How the pieces of a streamed answer are put back together, the way OpenAI's own client merges
 * stream deltas: text joined, arrays appended (tool calls merged by their `index`), objects
 * merged, anything else taken from the latest piece that has it (chat-assembler.ts uses these).
 */
import { isObject, type JsonObject } from '../core/json.js';

/** Keep `value` under `key` unless it is null and something was already there. */
export function keepLatest(target: JsonObject, key: string, value: unknown): void {
  if (value !== null || !(key in target)) target[key] = value;
}

/** The element of `list` with the same `index` as `item` (streamed tool calls come in pieces). */
function sameIndex(list: unknown[], item: unknown): JsonObject | undefined {
  if (!isObject(item) || typeof item.index !== 'number') return undefined;
  return list.find((other): other is JsonObject => isObject(other) && other.index === item.index);
}

/**
 * A later piece of a streamed tool call: its arguments joined, its id, type and function name
 * set, as OpenAI's client does (some servers send the id and name again in every piece, and
 * joining them would call a function "get_weatherget_weather").
 */
function mergeToolCall(target: JsonObject, piece: JsonObject): number {
  let added = 0;
  for (const [key, value] of Object.entries(piece)) {
    const current = target[key];
    if (key === 'function' && isObject(value) && isObject(current)) {
      const { arguments: args, ...rest } = value;
      if (typeof args === 'string' && typeof current.arguments === 'string') {
        current.arguments += args;
        added += args.length;
      } else if (args !== undefined && args !== null) current.arguments = structuredClone(args);
      for (const [field, part] of Object.entries(rest)) if (part !== null && part !== '') current[field] = structuredClone(part);
    } else if (value !== null && value !== '') target[key] = structuredClone(value);
  }
  return added;
}

/**
 * Merge a delta into what was assembled: strings joined, arrays appended (elements with the
 * same `index` merged), objects merged, anything else replaced. Returns the characters added.
 */
export function mergeDelta(target: JsonObject, delta: JsonObject): number {
  let added = 0;
  for (const [key, value] of Object.entries(delta)) {
    const current = target[key];
    if (key === 'tool_calls' && Array.isArray(value) && Array.isArray(current)) {
      for (const item of value as unknown[]) {
        const match = sameIndex(current as unknown[], item);
        if (match) added += mergeToolCall(match, item as JsonObject);
        else (current as unknown[]).push(structuredClone(item));
      }
    } else if (typeof value === 'string' && typeof current === 'string') {
      target[key] = current + value;
      added += value.length;
    } else if (Array.isArray(value) && Array.isArray(current)) {
      for (const item of value as unknown[]) {
        const match = sameIndex(current as unknown[], item);
        if (match) added += mergeDelta(match, item as JsonObject);
        else (current as unknown[]).push(structuredClone(item));
      }
    } else if (isObject(value) && isObject(current)) {
      added += mergeDelta(current, value);
    } else if (value !== null || current === undefined) {
      target[key] = structuredClone(value);
      if (typeof value === 'string') added += value.length;
    }
  }
  return added;
}

/**
 * A copy of extra fields for the completion handed out. Mostly there are none, and then no
 * structuredClone (a batch assembles thousands of completions; three clones each showed up).
 */
export function copied(fields: JsonObject): JsonObject {
  for (const _ in fields) return structuredClone(fields);
  return {};
}
