/**
 * Finding saved conversations by what was said in them: every line of a system, user or
 * assistant message that contains the text, compared case-insensitively (Unicode case folding).
 */
import { bothMayHold, hasOptionalEscapes, passes, rawFilterOf, type ConversationFilter } from './filter.js';
import { modelsOf } from './listed.js';
import { newestFirst, type ConversationStore } from './store.js';

export type Role = 'system' | 'user' | 'assistant';

export interface SearchMatch {
  /** 1-based turn number; 0 for the system message. */
  turn: number;
  role: Role;
  /** The whole line the text was found in. */
  line: string;
  /** Where in `line` the text starts (UTF-16 units, as JavaScript counts). */
  index: number;
}

export interface SearchHit {
  name: string;
  updated: string;
  turns: number;
  matches: SearchMatch[];
}

/** JSON writes these escaped (`\"`, `\\`, `\n`, `\u001b`): text holding one is not in a file as typed. */
const ESCAPED_IN_JSON = /["\\\u0000-\u001f]/;

function patternOf(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'iu');
}

/**
 * A quick test on a file's raw text that is true whenever a message in it could contain `text`:
 * JSON.stringify keeps every other character as it is, so the text is in the raw file too. A file
 * with escapes it never writes (`\u`, `\/`: another tool, or a hand edit) is always read properly.
 */
function rawFilter(text: string, pattern: RegExp): ((raw: string) => boolean) | undefined {
  if (ESCAPED_IN_JSON.test(text)) return undefined;
  return (raw) => pattern.test(raw) || hasOptionalEscapes(raw);
}

function matchesIn(content: string, turn: number, role: Role, pattern: RegExp, into: SearchMatch[]): void {
  if (!pattern.test(content)) return;
  for (const line of content.split('\n')) {
    const found = pattern.exec(line);
    if (found) into.push({ turn, role, line, index: found.index });
  }
}

/**
 * The conversations that contain `text`, each with its matching lines in order, one at a time as
 * they are found, the most recently written file first: a caller printing them can stop at any
 * point (`| head`) without reading the rest. Only those `filter` passes; with its `limit`, no
 * conversation is read after that many have matched.
 */
export function* searchEach(store: ConversationStore, text: string, filter: ConversationFilter = {}): Generator<SearchHit> {
  const pattern = patternOf(text);
  let found = 0;
  if (filter.limit !== undefined && filter.limit <= 0) return;
  for (const summary of store.each(bothMayHold(rawFilter(text, pattern), rawFilterOf(filter)))) {
    const { conversation } = summary;
    if (!passes({ updated: summary.updated, models: modelsOf(conversation) }, filter)) continue;
    const matches: SearchMatch[] = [];
    if (conversation.system) matchesIn(conversation.system, 0, 'system', pattern, matches);
    conversation.turns.forEach((turn, index) => {
      matchesIn(turn.user, index + 1, 'user', pattern, matches);
      matchesIn(turn.assistant, index + 1, 'assistant', pattern, matches);
    });
    if (matches.length === 0) continue;
    yield { name: summary.name, updated: summary.updated, turns: summary.turns, matches };
    found += 1;
    if (filter.limit !== undefined && found >= filter.limit) return;
  }
}

/** Every conversation that contains `text` (and passes `filter`), newest first (by its last record). */
export function searchConversations(store: ConversationStore, text: string, filter: ConversationFilter = {}): SearchHit[] {
  return [...searchEach(store, text, filter)].sort(newestFirst);
}

/**
 * A splitter of lines into pieces, each occurrence of `text` (any case) a piece of its own marked
 * `match`: what a terminal shows highlighted. Made once per search, its pattern compiled once.
 */
export function matchSplitter(text: string): (line: string) => Array<{ text: string; match: boolean }> {
  const pattern = new RegExp(patternOf(text).source, 'giu');
  return (line) => splitAt(line, pattern);
}

function splitAt(line: string, pattern: RegExp): Array<{ text: string; match: boolean }> {
  const pieces: Array<{ text: string; match: boolean }> = [];
  let at = 0;
  for (const found of line.matchAll(pattern)) {
    if (found[0] === '') continue;
    if (found.index > at) pieces.push({ text: line.slice(at, found.index), match: false });
    pieces.push({ text: found[0], match: true });
    at = found.index + found[0].length;
  }
  if (at < line.length) pieces.push({ text: line.slice(at), match: false });
  return pieces;
}

/**
 * `line` cut to about `width` characters around the match at `index`, with "…" where it was cut,
 * and without its leading indentation: what a listing shows of a long line.
 */
export function lineInContext(line: string, index: number, width = 160): string {
  const trimmed = line.trimStart();
  const at = index - (line.length - trimmed.length);
  if (trimmed.length <= width) return trimmed.trimEnd();
  let start = Math.max(0, Math.min(at - Math.floor(width / 3), trimmed.length - width));
  let end = start + width;
  // Never half a surrogate pair (an emoji cut in two shows as garbage).
  if (isLowSurrogate(trimmed.charCodeAt(start))) start += 1;
  if (isLowSurrogate(trimmed.charCodeAt(end))) end -= 1;
  return `${start > 0 ? '…' : ''}${trimmed.slice(start, end).trim()}${end < trimmed.length ? '…' : ''}`;
}

const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
