/**
 * Tools (OpenAI function calling): `tools` (functions with a JSON Schema of their parameters),
 * `tool_choice` (`none`, `auto`, `required`, or one function by name) and `parallel_tool_calls`.
 * The emulator calls a tool when it is made to (`required`, or a function named), or, with
 * `auto`, when the last user message asks for what a function is about: its name, or a word of
 * it that is not a generic verb ("the weather in Paris" for `get_weather`). Every function the
 * message asks for is called at once, in the order the message asks, unless
 * `parallel_tool_calls` is false (then the first). After a tool's result (a `tool` message) it
 * answers in text. The arguments are made from the function's parameter schema, deterministic
 * for the seed.
 */
import { invalidParam } from '../../core/errors.js';
import type { Rng } from '../random.js';
import { describe, isObject, rejectUnknownFields, required, type JsonObject } from '../../core/validate.js';
import { valueFromSchema } from './response-format.js';
import { checkStrictSchema } from './strict-schema.js';
import type { ToolCall } from '../../core/chat/completion.js';

export interface ToolFunction {
  name: string;
  parameters: JsonObject;
}

export type ToolChoice = { kind: 'none' } | { kind: 'auto' } | { kind: 'required' } | { kind: 'function'; name: string };

export interface Tools {
  functions: ToolFunction[];
  choice: ToolChoice;
  /** `parallel_tool_calls` (true unless false is sent): several calls in one reply. */
  parallel: boolean;
}


const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function parseFunctions(body: JsonObject): ToolFunction[] {
  const tools = body.tools;
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools)) throw invalidParam('tools', `tools must be an array of {type: "function", function: {...}}; got ${describe(tools)}`, 'invalid_type');
  return tools.map((tool: unknown, index): ToolFunction => {
    const at = `tools[${index}]`;
    if (!isObject(tool)) throw invalidParam(at, `${at} must be an object; got ${describe(tool)}`, 'invalid_type');
    rejectUnknownFields(tool, ['type', 'function'], `${at}.`);
    if (required(tool, 'type', `${at}.type`) !== 'function') throw invalidParam(`${at}.type`, `${at}.type must be "function"; got ${describe(tool.type)}`, 'invalid_value');
    const fn = required(tool, 'function', `${at}.function`);
    if (!isObject(fn)) throw invalidParam(`${at}.function`, `${at}.function must be an object with a name; got ${describe(fn)}`, 'invalid_type');
    rejectUnknownFields(fn, ['name', 'description', 'parameters', 'strict'], `${at}.function.`);
    const name = required(fn, 'name', `${at}.function.name`);
    if (typeof name !== 'string' || !NAME.test(name)) throw invalidParam(`${at}.function.name`, `${at}.function.name must be letters, digits, "_" or "-" (at most 64); got ${describe(name)}`, 'invalid_value');
    const parameters = fn.parameters ?? { type: 'object', properties: {} };
    if (!isObject(parameters)) throw invalidParam(`${at}.function.parameters`, `${at}.function.parameters must be a JSON Schema object; got ${describe(parameters)}`, 'invalid_type');
    if (fn.strict !== undefined && fn.strict !== null && typeof fn.strict !== 'boolean') {
      throw invalidParam(`${at}.function.strict`, `${at}.function.strict must be a boolean; got ${describe(fn.strict)}`, 'invalid_type');
    }
    if (fn.strict === true) checkStrictSchema(parameters, `function '${name}'`, `${at}.function.parameters`);
    return { name, parameters };
  });
}

function parseChoice(body: JsonObject, functions: readonly ToolFunction[]): ToolChoice {
  const value = body.tool_choice;
  if (value === undefined || value === null) return { kind: functions.length > 0 ? 'auto' : 'none' };
  if (value === 'none' || value === 'auto' || value === 'required') {
    if (value !== 'none' && functions.length === 0) throw invalidParam('tool_choice', `tool_choice "${value}" needs tools`, 'invalid_value');
    return { kind: value };
  }
  const name = isObject(value) && value.type === 'function' && isObject(value.function) ? value.function.name : undefined;
  if (typeof name !== 'string') throw invalidParam('tool_choice', `tool_choice must be none, auto, required or {"type": "function", "function": {"name": ...}}; got ${describe(value)}`, 'invalid_value');
  if (!functions.some((fn) => fn.name === name)) throw invalidParam('tool_choice', `tool_choice names "${name}", which is not one of the tools`, 'invalid_value');
  return { kind: 'function', name };
}

export function parseTools(body: JsonObject): Tools {
  const functions = parseFunctions(body);
  if (body.parallel_tool_calls !== undefined && body.parallel_tool_calls !== null && typeof body.parallel_tool_calls !== 'boolean') {
    throw invalidParam('parallel_tool_calls', `parallel_tool_calls must be a boolean; got ${describe(body.parallel_tool_calls)}`, 'invalid_type');
  }
  return { functions, choice: parseChoice(body, functions), parallel: body.parallel_tool_calls !== false };
}

/** Words of a name that say nothing of what a function is about. */
const GENERIC_WORDS = new Set([
  'get', 'set', 'fetch', 'list', 'create', 'update', 'delete', 'remove', 'find', 'search', 'lookup', 'look', 'query', 'read',
  'write', 'make', 'run', 'call', 'send', 'add', 'check', 'current', 'info', 'data', 'details', 'the', 'for', 'and', 'tool',
]);

/** What a function is about, from its name: `get_weather` → weather, `getStockPrice` → stock, price. */
export function subjectWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length >= 3 && !GENERIC_WORDS.has(word));
}

/** Where `text` (lower case) first asks for `fn`: its name, or a subject word of it as a whole word; -1 when nowhere. */
function firstMention(fn: ToolFunction, text: string): number {
  const name = fn.name.toLowerCase();
  const places = [text.indexOf(name), text.indexOf(name.replace(/[_-]/g, ' '))];
  for (const word of subjectWords(fn.name)) {
    const match = new RegExp(`\\b${word}s?\\b`).exec(text);
    if (match) places.push(match.index);
  }
  const found = places.filter((at) => at >= 0);
  return found.length === 0 ? -1 : Math.min(...found);
}

/**
 * The part of `text` that asks for each of `called`: from its first mention to the next one's
 * ("the time in Tokyo, and the weather in Paris" → get_time: "time in Tokyo, and the", get_weather:
 * "weather in Paris"), so each call's arguments can come from its own words. A function the text
 * does not mention (forced, or `required`) gets the whole text.
 */
export function askingParts(called: readonly ToolFunction[], text: string): string[] {
  const lower = text.toLowerCase();
  const starts = called.map((fn) => firstMention(fn, lower));
  const sorted = starts.filter((at) => at >= 0).sort((a, b) => a - b);
  return starts.map((at) => {
    if (at < 0) return text;
    const next = sorted.find((other) => other > at);
    return text.slice(at, next);
  });
}

/** The functions to call for this conversation, in order; none to answer in text. */
export function toolsToCall(tools: Tools, lastRole: string, lastUser: string): ToolFunction[] {
  const { functions, choice, parallel } = tools;
  if (choice.kind === 'none' || functions.length === 0) return [];
  if (choice.kind === 'function') return functions.filter((fn) => fn.name === choice.name);
  const first = functions.slice(0, 1);
  // A tool's result just came back: answer it in words (no endless loop of calls).
  if (lastRole === 'tool') return choice.kind === 'required' ? first : [];
  const text = lastUser.toLowerCase();
  const asked = functions
    .map((fn) => ({ fn, at: firstMention(fn, text) }))
    .filter(({ at }) => at >= 0)
    .sort((a, b) => a.at - b.at)
    .map(({ fn }) => fn);
  const calls = asked.length === 0 && choice.kind === 'required' ? first : asked;
  return parallel ? calls : calls.slice(0, 1);
}

/** A call of `fn`, its arguments made from its parameters' schema. */
export function makeCall(fn: ToolFunction, rng: Rng, words: readonly string[]): ToolCall {
  const id = `call_${Math.floor(rng.next() * 2 ** 48).toString(36).padStart(10, '0')}`;
  return { id, name: fn.name, arguments: JSON.stringify(valueFromSchema(fn.parameters, rng, words) ?? {}) };
}

/** The ids of an assistant message's tool calls (its shape was checked by core/chat/messages.ts). */
function toolCallIds(value: JsonObject): string[] {
  return Array.isArray(value.tool_calls) ? value.tool_calls.map((call) => (call as { id: string }).id) : [];
}

/**
 * The order of a tool loop, as OpenAI checks it: an assistant message with `tool_calls` is
 * followed by a `tool` message for each of its ids before anything else, and a `tool` message
 * answers a call of the assistant message before it. A script whose loop drops or mislabels a
 * result is refused here as it would be by the service, not answered as if all were well.
 * The wording is OpenAI's (its "preceeding" included), for whoever searches for it.
 */
export function checkToolTurns(values: readonly JsonObject[]): void {
  let open: { index: number; ids: readonly string[]; waiting: Set<string> } | undefined;
  const unanswered = (turn: NonNullable<typeof open>): Error =>
    invalidParam(`messages[${turn.index}].role`, `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...turn.waiting].join(', ')}`, null);
  values.forEach((value, index) => {
    if (value.role === 'tool') {
      if (open === undefined) {
        throw invalidParam(`messages[${index}].role`, "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", null);
      }
      const id = value.tool_call_id as string;
      if (!open.ids.includes(id)) {
        throw invalidParam(`messages[${index}].tool_call_id`, `Invalid parameter: 'tool_call_id' of '${id}' not found in 'tool_calls' of previous message.`, null);
      }
      open.waiting.delete(id);
      return;
    }
    if (open !== undefined && open.waiting.size > 0) throw unanswered(open);
    const ids = value.role === 'assistant' ? toolCallIds(value) : [];
    open = ids.length > 0 ? { index, ids, waiting: new Set(ids) } : undefined;
  });
  if (open !== undefined && open.waiting.size > 0) throw unanswered(open);
}
