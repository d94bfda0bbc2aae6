/**
 * The common case of a chat stream, read without JSON.parse: nearly every chunk is the chunk
 * before it with other text in `delta.content` (the same id, model, created, index; no finish
 * reason yet). Once a chunk of that kind has been parsed, its text before and after the content
 * string is remembered; a later chunk that has exactly that text around a single JSON string is
 * the same chunk with new text, and only the string is read. Parsing each chunk would be the
 * largest part of svc's own time on a long stream (bench/README.md).
 *
 * Anything else (another field, a finish reason, usage, a role, reasoning, spaces laid out
 * differently, a random field some services add to every chunk) does not match, and is parsed
 * in full as before, so the fast path can only ever give what the full parse would.
 */
import { isObject, type JsonObject } from '../../core/json.js';
import type { EventShortcut } from './decode.js';
import { EventRun } from './event-run.js';
import type { SseEvent } from './event-parser.js';

const KEY = '"content"';
const MARKER = `${KEY}:`;

/** Keys a choice may have for its chunk to be a text-only one. */
const TEXT_ONLY_CHOICE = new Set(['index', 'delta', 'finish_reason', 'logprobs']);

/**
 * The end (exclusive) of the JSON string literal starting at `start` (a `"`), or -1. A control
 * character is no part of a JSON string (JSON.parse refuses it), and a CR or LF would end the
 * line in a stream: either way it is not the fast path's to read.
 */
function literalEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x5c) i += 1; // a backslash escapes the next character
    else if (code === 0x22) return i + 1;
    else if (code < 0x20) return -1;
  }
  return -1;
}

/** True when the parsed chunk carries text and nothing that assembling it twice would change. */
function textOnly(value: unknown): value is JsonObject {
  if (!isObject(value) || (value.usage !== undefined && value.usage !== null) || (value.error !== undefined && value.error !== null)) return false;
  const { choices } = value;
  if (!Array.isArray(choices) || choices.length !== 1) return false;
  const choice = choices[0] as unknown;
  if (!isObject(choice) || choice.finish_reason !== null || (choice.index !== undefined && choice.index !== 0)) return false;
  if (choice.logprobs !== undefined && choice.logprobs !== null) return false;
  for (const key in choice) if (!TEXT_ONLY_CHOICE.has(key)) return false;
  const delta = choice.delta;
  if (!isObject(delta) || typeof delta.content !== 'string') return false;
  for (const key in delta) if (key !== 'content') return false;
  return true;
}

/** The JSON string literal from `start` to `end` in `text`, as a string; undefined if it is not one. */
function stringAt(text: string, start: number, end: number): string | undefined {
  const inner = text.slice(start + 1, end - 1);
  if (inner.indexOf('\\') === -1) return inner;
  try {
    return JSON.parse(text.slice(start, end)) as string;
  } catch {
    return undefined;
  }
}

export class RepeatChunks implements EventShortcut<string> {
  #prefix: string | undefined;
  #suffix: string | undefined;
  /** The reader of runs of the same chunk in the stream's text, for the latest shape it was asked for. */
  #run: EventRun | undefined;

  /**
   * The text of `data` when it is the remembered chunk with other text in it, else undefined
   * (then parse it and call {@link remember}).
   */
  text(data: string): string | undefined {
    const prefix = this.#prefix;
    const suffix = this.#suffix;
    if (prefix === undefined || suffix === undefined) return undefined;
    if (data.length < prefix.length + suffix.length + 2 || !data.startsWith(prefix) || !data.endsWith(suffix)) return undefined;
    const start = prefix.length;
    const end = data.length - suffix.length;
    if (data.charCodeAt(start) !== 0x22 || literalEnd(data, start) !== end) return undefined;
    return stringAt(data, start, end);
  }

  /** {@link text} of a `message` event's data (trimmed, as chat.ts reads it). */
  read(event: SseEvent): string | undefined {
    return event.event === 'message' ? this.text(event.data.trim()) : undefined;
  }

  /**
   * The events at `at` in a stream's text that are the remembered chunk with other text: their
   * texts, joined, are added to `into` as one string, and the position after them returned
   * (sse/event-run.ts). The same chunks as {@link text} accepts, written the usual way, found
   * without cutting the text into lines and fields first; joined, since all that matters of a
   * run of them is its text (one string for the ~100 events of a network read).
   */
  take(text: string, at: number, into: Array<SseEvent | string>): number {
    const prefix = this.#prefix;
    const suffix = this.#suffix;
    if (prefix === undefined || suffix === undefined) return at;
    // Made when first needed and kept while the shape stays: a stream whose chunks all differ
    // (a random field in each) never needs one.
    if (this.#run?.prefix !== prefix || this.#run.suffix !== suffix) this.#run = new EventRun(prefix, suffix);
    return this.#run.take(text, at, into);
  }

  /** Learn the shape of text-only chunks from one that was parsed in full; forget it otherwise. */
  remember(data: string, value: unknown): void {
    this.#prefix = undefined;
    this.#suffix = undefined;
    // An event sent as several data lines is not learned from: its line ends would be part of the
    // shape, and a later event's lines are cut apart before they are joined.
    if (!textOnly(value) || data.includes('\n')) return;
    // The key must be the only "content" in the chunk, however spaced (`"content" :`): another
    // (a field of some other object) could be the one the marker finds.
    const at = data.indexOf(MARKER);
    if (at === -1 || data.indexOf(KEY, at + 1) !== -1 || data.lastIndexOf(KEY, at - 1) !== -1) return;
    let start = at + MARKER.length;
    while (data.charCodeAt(start) === 0x20) start += 1;
    if (data.charCodeAt(start) !== 0x22) return;
    const end = literalEnd(data, start);
    if (end === -1) return;
    this.#prefix = data.slice(0, start);
    this.#suffix = data.slice(end);
  }
}
