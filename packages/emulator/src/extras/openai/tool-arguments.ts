/**
 * The arguments of a tool call, as a model writes them: a JSON object valid against the
 * function's parameter schema, each value taken from the words that ask for the call where they
 * give one, and made up from the schema (response-format.ts) where they do not:
 *
 * - a path-like property (`path`, `file`, `directory`, `source`, `destination`...) takes the
 *   next path of the message (quoted, `/tmp/notes.txt`, `./src`, `notes.txt`), else `.`;
 * - a URL-like one (`url`, `uri`, `link`) the next `http(s)://` link, else `https://example.com`;
 * - a text-like one (`text`, `message`, `query`, `content`...) the next quoted text, else the
 *   words after the tool's name ("use the echo tool to say hi there" → "hi there"), else the key
 *   words of the ask;
 * - any other string the next quoted text, else the next key word (a name first: "in Paris" →
 *   Paris);
 * - a number the next number of the message within the schema's bounds; an enum the value the
 *   message names, else the first; a boolean false (a model leaves a flag off unless asked).
 *
 * When the schema lists `required` properties only those are filled, as a model leaves optional
 * ones out; without a list, every property is.
 */
import type { Rng } from '../random.js';
import { isObject, type JsonObject } from '../../core/validate.js';
import { resolveRef, valueFromSchema } from './response-format.js';

/** The quoted texts of `text`, in order ("double", “curly”, `backticks`, or 'single' quotes around words). */
function quotedIn(text: string): string[] {
  return [...text.matchAll(/"([^"\n]+)"|“([^”\n]+)”|`([^`\n]+)`|(?<![\p{L}\p{N}])'([^'\n]+)'(?![\p{L}\p{N}])/gu)]
    .map((match) => (match[1] ?? match[2] ?? match[3] ?? match[4] ?? '').trim())
    .filter((value) => value !== '');
}

function urlsIn(text: string): string[] {
  return [...text.matchAll(/\bhttps?:\/\/[^\s"'`<>]+/g)].map((match) => match[0].replace(/[.,;:!?)]+$/, ''));
}

/** A quoted value that reads as a path (spaces allowed): it has a slash, starts with `~` or is `.`/`..`, or ends in an extension. */
function looksLikePath(value: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return false;
  return /[/\\]/.test(value) || /^~/.test(value) || /^\.{1,2}$/.test(value) || /^[^/\\]+\.[A-Za-z][A-Za-z0-9]{0,7}$/.test(value);
}

/**
 * The paths of `text`, in order: quoted ones first (they may hold spaces), then bare ones
 * (`/tmp/notes.txt`, `~/x`, `./src`, `src/index.ts`, `notes.txt`), never a piece of a link.
 */
export function pathsIn(text: string): string[] {
  const urls = urlsIn(text);
  const bare = [...text.matchAll(/(?<=^|[\s(])((?:~|\.{1,2})?\/[^\s"'`,;()]*|(?:[\w-]+\/)*[\w-]+(?:\.[\w-]+)*\.[A-Za-z][A-Za-z0-9]{0,7})(?=$|[\s,;:!?)]|\.(?:\s|$))/g)]
    .map((match) => match[1]!.replace(/[.,;:!?]+$/, ''))
    .filter((path) => path !== '' && !urls.some((url) => url.includes(path)));
  return [...quotedIn(text).filter(looksLikePath), ...bare];
}

function numbersIn(text: string): number[] {
  return [...text.matchAll(/(?<![\p{L}\p{N}_./:-])-?\d+(?:\.\d+)?(?![\p{L}\p{N}_/])/gu)].map((match) => Number(match[0]));
}

/**
 * The values the words asking for a call give, each used once, in the order they come: those of
 * its own part of the message, or, where that part has none of a kind, those of the whole message.
 */
class Given {
  readonly quoted: string[];
  readonly urls: string[];
  readonly paths: string[];
  readonly numbers: number[];
  readonly #used = new Set<string>();
  #numbersUsed = 0;

  constructor(readonly asking: ToolAsk, readonly words: readonly string[]) {
    const own = <T>(find: (text: string) => T[]): T[] => {
      const found = find(asking.part);
      return found.length > 0 ? found : find(asking.whole);
    };
    this.quoted = own(quotedIn);
    this.urls = own(urlsIn);
    this.paths = own(pathsIn);
    this.numbers = own(numbersIn);
  }

  /** The first of `values` not used yet, now used; `quoted` and `paths` share the values they have in common. */
  take(values: readonly string[]): string | undefined {
    const value = values.find((candidate) => !this.#used.has(candidate.toLowerCase()));
    if (value !== undefined) this.#used.add(value.toLowerCase());
    return value;
  }

  /** The next key word of the ask not used yet (a name first: "the weather in Oslo" → Oslo). */
  takeWord(): string | undefined {
    return this.take(this.words);
  }

  /** Marks `value` used, so no property takes it (an enum value the message names). */
  use(value: string): void {
    this.#used.add(value.toLowerCase());
  }

  takeAll(values: readonly string[]): string[] {
    const left = values.filter((candidate) => !this.#used.has(candidate.toLowerCase()));
    for (const value of left) this.#used.add(value.toLowerCase());
    return left;
  }

  /** The next number within `[min, max]` (a whole one when `integer`), passing over those it cannot use. */
  takeNumber(min: number, max: number, integer: boolean): number | undefined {
    while (this.#numbersUsed < this.numbers.length) {
      const value = this.numbers[this.#numbersUsed++]!;
      if (value >= min && value <= max && (!integer || Number.isInteger(value))) return value;
    }
    return undefined;
  }
}

/** The words that ask for a call: its own part of the message, the whole message, and what follows the tool's name in its part. */
export interface ToolAsk {
  part: string;
  whole: string;
  /** "Use the echo tool to say hi there" → "hi there": the free text a text-like argument takes when nothing is quoted. */
  rest: string;
}

/** The words of a property name, lower case: `file_path` → file, path; `targetDir` → target, dir. */
function wordsOf(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
}

const PATH_WORDS = new Set(['path', 'paths', 'file', 'files', 'filename', 'filenames', 'filepath', 'dir', 'dirs', 'directory', 'directories', 'folder', 'folders', 'destination']);
const PATH_NAMES = new Set(['source', 'dest', 'target', 'root', 'cwd']);
const URL_WORDS = new Set(['url', 'urls', 'uri', 'link', 'href', 'endpoint']);
const TEXT_WORDS = new Set(['text', 'message', 'msg', 'content', 'query', 'prompt', 'input', 'q', 'body', 'note', 'comment', 'question', 'pattern', 'search', 'term', 'keyword', 'keywords', 'title', 'subject']);

type Kind = 'path' | 'url' | 'text' | 'other';

function kindOf(name: string): Kind {
  const words = wordsOf(name);
  if (words.some((word) => PATH_WORDS.has(word)) || PATH_NAMES.has(name.toLowerCase())) return 'path';
  if (words.some((word) => URL_WORDS.has(word))) return 'url';
  if (words.some((word) => TEXT_WORDS.has(word))) return 'text';
  return 'other';
}

/** The option of an enum that `text` names as a word, if any. */
function namedOption(options: readonly unknown[], text: string): string | undefined {
  return options.find((option): option is string => typeof option === 'string' && new RegExp(`\\b${option.replace(/[^\w]/g, '\\$&')}\\b`, 'i').test(text));
}

/** The value of property `name`, of schema `schema` (its `$ref` resolved against `root`). */
function propertyValue(name: string, input: unknown, root: JsonObject, given: Given, rng: Rng, words: readonly string[]): unknown {
  const schema = isObject(input) ? resolveRef(root, input) : {};
  const kind = kindOf(name);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    return namedOption(schema.enum, given.asking.part) ?? schema.enum[0];
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== 'null') ?? types[0];
  const made = (): unknown => valueFromSchema(schema, rng, words, root);
  switch (type) {
    case 'string': {
      if (typeof schema.format === 'string' && !(kind === 'url' && schema.format === 'uri')) return made();
      if (kind === 'path') return given.take(given.paths) ?? given.take(given.quoted) ?? '.';
      if (kind === 'url') return given.take(given.urls) ?? given.take(given.quoted) ?? 'https://example.com';
      if (kind === 'text') return given.take(given.quoted) ?? (given.asking.rest || (words.length > 0 ? words.join(' ') : 'example'));
      return given.take(given.quoted) ?? given.takeWord() ?? made();
    }
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : Number.NEGATIVE_INFINITY;
      const max = typeof schema.maximum === 'number' ? schema.maximum : Number.POSITIVE_INFINITY;
      return given.takeNumber(min, max, type === 'integer') ?? made();
    }
    case 'boolean':
      return false;
    case 'array': {
      const items = isObject(schema.items) ? resolveRef(root, schema.items) : {};
      if (items.type === 'string' && (kind === 'path' || kind === 'url')) {
        const found = given.takeAll(kind === 'path' ? given.paths : given.urls);
        return found.length > 0 ? found : [kind === 'path' ? '.' : 'https://example.com'];
      }
      return made();
    }
    default:
      return made();
  }
}

/**
 * The arguments of a call of a function with `parameters`, as the JSON text a tool call carries:
 * values from `asking` (the words of the message that ask for the call) where it gives them, else
 * made from the schema with `words` (the key words of the ask).
 */
export function toolArguments(parameters: JsonObject, asking: ToolAsk, rng: Rng, words: readonly string[]): string {
  const properties = isObject(parameters.properties) ? parameters.properties : {};
  const required = Array.isArray(parameters.required) ? parameters.required.filter((key): key is string => typeof key === 'string') : undefined;
  const keys = required ?? Object.keys(properties);
  const given = new Given(asking, words);
  // A word that names an enum's value is that value, not also another property's ("in fahrenheit").
  for (const key of keys) {
    const schema = isObject(properties[key]) ? resolveRef(parameters, properties[key]) : {};
    const named = Array.isArray(schema.enum) ? namedOption(schema.enum, asking.part) : undefined;
    if (named !== undefined) given.use(named);
  }
  const value: JsonObject = {};
  for (const key of keys) value[key] = propertyValue(key, properties[key], parameters, given, rng, words);
  return JSON.stringify(value);
}
