/**
 * Tools (OpenAI function calling): `tools` (functions with a JSON Schema of their parameters),
 * `tool_choice` (`none`, `auto`, `required`, or one function by name) and `parallel_tool_calls`.
 * The emulator calls a tool when it is made to (`required`, or a function named), or, with
 * `auto`, when the last user message asks for it: by its name (`read_file`, or "read file"), or
 * by a word of it that is not a generic verb ("the weather in Paris" for `get_weather`). Of
 * several functions that share the word asked for ("read the file": `read_file`, `write_file`,
 * `read_text_file`), the one whose name the message covers best is called, not all of them.
 * Every function the message asks for is called at once, in the order the message asks, unless
 * `parallel_tool_calls` is false (then the first). After a tool's result (a `tool` message) it
 * answers in words (extras/text/tool-results.ts). The arguments are made from the function's
 * parameter schema and the values the message gives (tool-arguments.ts).
 */
import { invalidParam } from '../../core/errors.js';
import type { Rng } from '../random.js';
import { describe, isObject, rejectUnknownFields, required, type JsonObject } from '../../core/validate.js';
import { checkStrictSchema } from './strict-schema.js';
import { pathsIn, toolArguments, type ToolAsk } from './tool-arguments.js';
import type { ToolCall } from '../../core/chat/completion.js';
import { countTokens } from '../../core/tokenizer.js';

export interface ToolFunction {
  name: string;
  description?: string;
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
    return { name, ...(typeof fn.description === 'string' ? { description: fn.description } : {}), parameters };
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

/** The words of a function's name, lower case: `get_weather` → get, weather; `getStockPrice` → get, stock, price. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/** A word as it is looked for: its plural and singular alike (`files` finds "file" and "files"). */
function stem(word: string): string {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/** What a function is about, from its name: `get_weather` → weather, `getStockPrice` → stock, price. */
export function subjectWords(name: string): string[] {
  return nameWords(name).map(stem).filter((word) => word.length >= 3 && !GENERIC_WORDS.has(word));
}

/** Where `word` (or its plural) first stands as a whole word in `text` (lower case); -1 when nowhere. */
function wordAt(text: string, word: string): number {
  return new RegExp(`\\b${stem(word)}s?\\b`).exec(text)?.index ?? -1;
}

/** How the last user message asks for a function. */
interface Mention {
  fn: ToolFunction;
  /** Where it first asks. */
  at: number;
  /** Its whole name is written (`read_file`, "read file"). */
  named: boolean;
  /** The subject words of its name found in the message. */
  subjects: string[];
  /** The share of its name's words found in the message. */
  coverage: number;
}

/** Words of a name for what a path names: a message that gives a path gives one of these. */
const PATH_NOUNS = new Set(['file', 'directory', 'dir', 'folder']);

/** Words of a name too common in messages to ask for a tool beside a path ("get me notes.txt" is not `get_file_info`). */
const WEAK_WORDS = new Set(['get', 'set', 'the', 'for', 'and', 'info', 'data', 'details', 'current', 'tool', 'run', 'call', 'make', 'check', 'new']);

/** The first place of `phrase` in `text` as whole words (a name is letters, digits, `_` and `-`: nothing to escape); -1 when nowhere. */
function phraseAt(text: string, phrase: string): number {
  return new RegExp(`(?<![a-z0-9_-])${phrase}(?![a-z0-9_-])`).exec(text)?.index ?? -1;
}

function mentionOf(fn: ToolFunction, text: string, givesPath: boolean): Mention | undefined {
  const words = nameWords(fn.name);
  // A client that offers the tools of several servers puts the server's name before the tool's
  // (`fs__read_text_file`, as svc and other MCP clients do): the tool's own name, written, names it too.
  const own = fn.name.includes('__') ? fn.name.slice(fn.name.lastIndexOf('__') + 2) : undefined;
  const spellings = [fn.name, words.join(' '), ...(own ? [own, nameWords(own).join(' ')] : [])];
  const places = spellings.map((spelling) => phraseAt(text, spelling.toLowerCase())).filter((at) => at >= 0);
  const named = places.length > 0;
  const found = new Map(words.map((word) => [stem(word), wordAt(text, word)] as const).filter(([, at]) => at >= 0));
  // "read /tmp/notes.txt" asks for read_file: a path stands for the file, beside another word of the name.
  const noun = words.map(stem).find((word) => PATH_NOUNS.has(word));
  const beside = [...found].find(([word]) => !PATH_NOUNS.has(word) && !WEAK_WORDS.has(word));
  if (noun !== undefined && !found.has(noun) && givesPath && beside !== undefined) found.set(noun, beside[1]);
  const subjects = subjectWords(fn.name).filter((word) => found.has(word));
  if (!named && subjects.length === 0) return undefined;
  for (const word of subjects) places.push(found.get(word)!);
  return { fn, at: Math.min(...places), named, subjects, coverage: found.size / new Set(words.map(stem)).size };
}

/**
 * The functions the message asks for, in the order it asks: each named one, and each one a
 * subject word asks for unless a function that covers the message better already took every
 * such word ("read the file" is `read_file`, not also `write_file` and `read_text_file`).
 */
function mentioned(functions: readonly ToolFunction[], text: string): Mention[] {
  const lower = text.toLowerCase();
  const givesPath = pathsIn(text).length > 0;
  const found = functions.map((fn) => mentionOf(fn, lower, givesPath)).filter((mention): mention is Mention => mention !== undefined);
  const ranked = [...found].sort((a, b) => Number(b.named) - Number(a.named) || b.coverage - a.coverage || a.at - b.at);
  const taken = new Set<string>();
  const chosen = ranked.filter((mention) => {
    if (!mention.named && mention.subjects.every((word) => taken.has(word))) return false;
    for (const word of mention.subjects) taken.add(word);
    return true;
  });
  return chosen.sort((a, b) => a.at - b.at);
}

/** What leads into a tool's free text: "the echo tool to say hi there" → "hi there". */
const LEAD_WORDS = /^(?:[\s,:;]|\b(?:tool|function|to|say|saying|with|for|that|the|a|an|please|of|on|about|using|use|it)\b)+/i;

/**
 * The words of `text` that ask for each of `called`: its own part, from its first mention to
 * the next one's ("the time in Tokyo, and the weather in Paris" → get_time: "time in Tokyo, and
 * the", get_weather: "weather in Paris"), so each call's arguments come from its own words; the
 * whole text, when it asks for one function or does not mention it (forced, or `required`); and
 * what follows the function's mention in its part, for a text argument (the whole text, for a
 * function it does not mention).
 */
export function askingParts(called: readonly ToolFunction[], text: string): ToolAsk[] {
  const found = mentioned(called, text);
  const starts = called.map((fn) => found.find((mention) => mention.fn === fn)?.at ?? -1);
  const sorted = starts.filter((at) => at >= 0).sort((a, b) => a - b);
  return starts.map((at) => {
    if (at < 0) return { part: text, whole: text, rest: text.trim().replace(/[\s,.;:!?]+$/, '') };
    const next = sorted.find((other) => other > at);
    const own = text.slice(at, next);
    const rest = own.replace(/^\S+/, '').replace(LEAD_WORDS, '').replace(/[\s,.;:!?]+$/, '');
    return { part: called.length === 1 ? text : own, whole: text, rest };
  });
}

/** The functions to call for this conversation, in order; none to answer in words. */
export function toolsToCall(tools: Tools, lastRole: string, lastUser: string): ToolFunction[] {
  const { functions, choice, parallel } = tools;
  if (choice.kind === 'none' || functions.length === 0) return [];
  if (choice.kind === 'function') return functions.filter((fn) => fn.name === choice.name);
  const first = functions.slice(0, 1);
  // A tool's result just came back: answer it in words (no endless loop of calls), unless a call is required.
  if (lastRole === 'tool') return choice.kind === 'required' ? first : [];
  const asked = mentioned(functions, lastUser).map(({ fn }) => fn);
  const calls = asked.length === 0 && choice.kind === 'required' ? first : asked;
  return parallel ? calls : calls.slice(0, 1);
}

/** A call of `fn`: its arguments from its parameters' schema and the words that ask for it (tool-arguments.ts). */
export function makeCall(fn: ToolFunction, rng: Rng, asking: ToolAsk, words: readonly string[]): ToolCall {
  const id = `call_${Math.floor(rng.next() * 2 ** 48).toString(36).padStart(10, '0')}`;
  return { id, name: fn.name, arguments: toolArguments(fn.parameters, asking, rng, words) };
}

/** The prompt tokens of the tools offered: each function's name, description and parameters, as OpenAI counts them in. */
export function toolsTokens(tools: Tools): number {
  return tools.functions.reduce((sum, fn) => sum + countTokens(JSON.stringify(fn)), 0);
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
