/**
 * The common case of a chat stream, read without JSON.parse: nearly every chunk is the chunk
 * before it with other text in `delta.content` (the same id, model, created, index; no finish
 * reason yet). Once a chunk of that kind has been parsed, its text before and after the content
 * string is remembered; a later chunk that has exactly that text around a single JSON string is
 * the same chunk with new text, and only the string is read. Parsing each chunk was the largest
 * part of svc's own time on a long stream (bench/README.md).
 *
 * Anything else (another field, a finish reason, usage, a role, reasoning, spaces laid out
 * differently, a random field some services add to every chunk) does not match, and is parsed
 * in full as before, so the fast path can only ever give what the full parse would.
 */
import { isObject, type JsonObject } from '../../core/json.js';
import type { EventShortcut } from './decode.js';
import type { SseEvent } from './event-parser.js';

const MARKER = '"content":';

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
  /** The same chunk as a whole event in the stream's text: its data line up to the string, and after it. */
  #eventHead: string | undefined;
  #eventTail: string | undefined;

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
   * The events at `at` in a stream's text that are the remembered chunk with other text, each
   * written the usual way (`data: ` and the chunk on one line, then a blank line, LF line ends):
   * their texts, joined, are added to `into` as one string, and the position after them returned.
   * The same chunks as {@link text} accepts, found without cutting the text into lines and fields
   * first; joined, since all that matters of a run of them is its text (one string for the ~100
   * events of a network read, rather than 100 to hand on one by one).
   */
  take(text: string, at: number, into: Array<SseEvent | string>): number {
    const head = this.#eventHead;
    const tail = this.#eventTail;
    if (head === undefined || tail === undefined) return at;
    let run: string | undefined;
    for (;;) {
      if (!text.startsWith(head, at)) break;
      const start = at + head.length;
      if (text.charCodeAt(start) !== 0x22) break;
      const end = literalEnd(text, start);
      if (end === -1 || !text.startsWith(tail, end)) break;
      const value = stringAt(text, start, end);
      if (value === undefined) break;
      run = run === undefined ? value : run + value;
      at = end + tail.length;
    }
    if (run !== undefined) into.push(run);
    return at;
  }

  /** Learn the shape of text-only chunks from one that was parsed in full; forget it otherwise. */
  remember(data: string, value: unknown): void {
    this.#prefix = undefined;
    this.#suffix = undefined;
    this.#eventHead = undefined;
    this.#eventTail = undefined;
    if (!textOnly(value)) return;
    const at = data.indexOf(MARKER);
    if (at === -1 || data.indexOf(MARKER, at + 1) !== -1) return;
    let start = at + MARKER.length;
    while (data.charCodeAt(start) === 0x20) start += 1;
    if (data.charCodeAt(start) !== 0x22) return;
    const end = literalEnd(data, start);
    if (end === -1) return;
    this.#prefix = data.slice(0, start);
    this.#suffix = data.slice(end);
    // `data` is trimmed (chat.ts): written with one space after the colon, the line holds it as is.
    this.#eventHead = `data: ${this.#prefix}`;
    this.#eventTail = `${this.#suffix}\n\n`;
  }
}
