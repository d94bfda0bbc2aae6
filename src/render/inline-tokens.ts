/**
 * The inline tokens of a line of Markdown, read one at a time by LineFlow (line-flow.ts): escapes,
 * runs of `*`, `_` and `~` (CommonMark's flanking rules), code spans, links and their URLs, the
 * closing `#`s of a heading. Each returns false when more text is needed to decide, and otherwise
 * emits what it shows and advances past what it read. They act through {@link TokenReader}: the
 * reader's text and state, the decisions kept by position (openers that turned out literal,
 * completed links), and the three moves (emit a character, advance, read the row again).
 */
import { safeHyperlink } from './hyperlinks.js';
import { ASCII_PUNCTUATION, isPunctuation, isSpace, type Span, type State, type UrlPart } from './inline-state.js';

export interface TokenReader {
  /** The line's text from the reader's base on; positions in `state` minus the base index it. */
  text: string;
  /** The whole line has arrived: no token waits for more. */
  complete: boolean;
  state: State;
  /** Openers found not to open anything, by position. */
  readonly literal: Set<number>;
  /** Hyperlink targets of completed links, by the position of their `[`. */
  readonly links: Map<number, string>;
  /** Where the row being filled starts. */
  rowStartPos: number;
  readonly hyperlinks: boolean;
  readonly color: boolean;
  emit(char: string): void;
  advance(length: number, last: string): void;
  /** Read the current row again from its start up to `target`, with what is known now. */
  rerun(target: number): void;
}

export function literalChar(r: TokenReader, i: number): boolean {
  const text = r.text;
  const code = text.codePointAt(i) as number;
  if (code >= 0xd800 && code <= 0xdbff && i + 1 >= text.length && !r.complete) return false;
  const char = String.fromCodePoint(code);
  r.emit(char);
  r.advance(char.length, char);
  return true;
}

export function escape(r: TokenReader, i: number): boolean {
  const text = r.text;
  if (i + 1 >= text.length && !r.complete) return false;
  const next = text[i + 1] ?? '';
  if (ASCII_PUNCTUATION.test(next)) {
    r.emit(next);
    r.advance(2, next);
  } else {
    r.emit('\\');
    r.advance(1, '\\');
  }
  return true;
}

/** A run of `*`, `_` or `~`: closes and opens spans by CommonMark's flanking rules. */
export function delimiters(r: TokenReader, char: string, i: number): boolean {
  const text = r.text;
  let j = i;
  while (j < text.length && text[j] === char) j++;
  if (j >= text.length && !r.complete) return false;
  const s = r.state;
  const run = j - i;
  const before = s.prev;
  const after = j < text.length ? String.fromCodePoint(text.codePointAt(j) as number) : '';
  const left = !isSpace(after) && (!isPunctuation(after) || isSpace(before) || isPunctuation(before));
  const right = !isSpace(before) && (!isPunctuation(before) || isSpace(after) || isPunctuation(after));
  const canOpen = char === '_' ? left && (!right || isPunctuation(before)) : left;
  const canClose = char === '_' ? right && (!left || isPunctuation(after)) : right;

  let spans = s.spans;
  let remaining = run;
  if (canClose) {
    for (;;) {
      const index = spans.findLastIndex((span) => span.char === char);
      const span = spans[index];
      if (span === undefined || span.length > remaining) break;
      spans = spans.filter((_, k) => k !== index);
      remaining -= span.length;
    }
  }
  const closed = run - remaining;
  const opening: Span[] = [];
  if (canOpen && remaining > 0) {
    const start = s.pos + closed;
    if (char === '~') {
      if (remaining === 2) opening.push({ kind: 'strike', char, length: 2, at: start });
    } else if (remaining >= 3) {
      opening.push({ kind: 'strong', char, length: 2, at: start + remaining - 3 }, { kind: 'em', char, length: 1, at: start + remaining - 1 });
    } else {
      opening.push({ kind: remaining === 2 ? 'strong' : 'em', char, length: remaining, at: start });
    }
  }
  // Openers known not to close anything are shown as the characters they are.
  const opened = opening.filter((span) => !r.literal.has(span.at));
  const shown = run - closed - opened.reduce((sum, span) => sum + span.length, 0);
  r.state = { ...s, spans };
  for (let k = 0; k < shown; k++) r.emit(char);
  r.state = { ...r.state, spans: [...spans, ...opened] };
  r.advance(run, char);
  return true;
}

export function codeOpen(r: TokenReader, i: number): boolean {
  const text = r.text;
  let j = i;
  while (j < text.length && text[j] === '`') j++;
  if (j >= text.length && !r.complete) return false;
  const run = j - i;
  const s = r.state;
  if (r.literal.has(s.pos)) {
    for (let k = 0; k < run; k++) r.emit('`');
  } else {
    r.state = { ...s, spans: [...s.spans, { kind: 'code', char: '`', length: run, at: s.pos }] };
    // Without colour a code span would look like plain text: its backticks stay.
    if (!r.color) for (let k = 0; k < run; k++) r.emit('`');
  }
  r.advance(run, '`');
  return true;
}

export function inCode(r: TokenReader, span: Span, i: number): boolean {
  const text = r.text;
  if (text[i] !== '`') return literalChar(r, i);
  let j = i;
  while (j < text.length && text[j] === '`') j++;
  if (j >= text.length && !r.complete) return false;
  const run = j - i;
  if (run === span.length) {
    if (!r.color) for (let k = 0; k < run; k++) r.emit('`');
    const s = r.state;
    r.state = { ...s, spans: s.spans.slice(0, -1) };
  } else {
    for (let k = 0; k < run; k++) r.emit('`');
  }
  r.advance(run, '`');
  return true;
}

/** Link text longer than this is not taken for one: its `[` is shown as it is. */
const MAX_LINK_TEXT = 2000;

/**
 * Whether the `[` at `i` starts a link: its matching `]` (brackets nested inside counted, escaped
 * ones skipped) is followed by `(`. 'wait' while the text that decides has not arrived.
 */
function bracketFate(text: string, i: number, complete: boolean): 'link' | 'literal' | 'wait' {
  let depth = 0;
  const end = Math.min(text.length, i + 1 + MAX_LINK_TEXT);
  for (let j = i + 1; j < end; j++) {
    const char = text[j];
    if (char === '\\') j += 1;
    else if (char === '[') depth += 1;
    else if (char === ']' && depth > 0) depth -= 1;
    else if (char === ']') {
      if (j + 1 >= text.length) return complete ? 'literal' : 'wait';
      return text[j + 1] === '(' ? 'link' : 'literal';
    }
  }
  return end < text.length || end - i - 1 >= MAX_LINK_TEXT || complete ? 'literal' : 'wait';
}

/**
 * A `[` is decided before anything after it is shown: a link (its text styled, the bracket
 * hidden) only once its `](` has arrived, else the bracket as it is. Deciding later could find
 * the bracket on a row already finished, where it could no longer be shown (`arr[0` read as
 * `arr0`). The price: after a `[` that closes nothing, the rest of the line waits for its end.
 */
export function bracketOpen(r: TokenReader, i: number): boolean {
  const s = r.state;
  if (r.literal.has(s.pos)) {
    r.emit('[');
  } else if (s.spans.some((span) => span.kind === 'link')) {
    r.emit('[');
    r.state = { ...r.state, brackets: s.brackets + 1 };
  } else {
    const fate = bracketFate(r.text, i, r.complete);
    if (fate === 'wait') return false;
    if (fate === 'literal') {
      r.literal.add(s.pos);
      r.emit('[');
    } else {
      r.state = { ...s, spans: [...s.spans, { kind: 'link', char: '[', length: 1, at: s.pos }] };
    }
  }
  r.advance(1, '[');
  return true;
}

export function bracketClose(r: TokenReader, i: number): boolean {
  const s = r.state;
  const index = s.spans.findLastIndex((span) => span.kind === 'link');
  const link = s.spans[index];
  if (link === undefined || s.brackets > 0) {
    r.emit(']');
    r.state = { ...r.state, brackets: Math.max(0, s.brackets - 1) };
    r.advance(1, ']');
    return true;
  }
  const text = r.text;
  if (i + 1 >= text.length && !r.complete) return false;
  const spans = s.spans.filter((_, k) => k !== index);
  if (text[i + 1] === '(') {
    // `[text](url)` is shown as `text (url)`: the URL stays visible, dimmed, so it can be read
    // (and copied) even where the terminal has no hyperlinks.
    r.state = { ...s, spans };
    r.emit(' ');
    r.state = { ...r.state, url: { at: link.at, depth: 0, text: '' } };
    r.emit('(');
    r.advance(2, '(');
    return true;
  }
  // Not a link: its `[` was a bracket. Redraw the row to show it if it is on this row.
  r.literal.add(link.at);
  if (link.at >= r.rowStartPos) r.rerun(s.pos);
  else r.state = { ...s, spans };
  return true;
}

export function inUrl(r: TokenReader, url: UrlPart, i: number): boolean {
  const text = r.text;
  const char = text[i] as string;
  if (char === ')' && url.depth === 0) {
    r.emit(')');
    const s = r.state;
    r.state = { ...s, url: undefined };
    r.advance(1, ')');
    const target = r.hyperlinks ? safeHyperlink(url.text) : undefined;
    if (target !== undefined && !r.links.has(url.at)) {
      // The link is complete: draw its text and URL on this row again, now as a hyperlink.
      r.links.set(url.at, target);
      r.rerun(r.state.pos);
    }
    return true;
  }
  const depth = char === '(' ? url.depth + 1 : char === ')' ? url.depth - 1 : url.depth;
  const code = text.codePointAt(i) as number;
  if (code >= 0xd800 && code <= 0xdbff && i + 1 >= text.length && !r.complete) return false;
  const whole = String.fromCodePoint(code);
  r.emit(whole);
  r.state = { ...r.state, url: { ...url, depth, text: url.text + whole } };
  r.advance(whole.length, whole);
  return true;
}

/** A closing sequence of an ATX heading (`## Title ##`) is hidden; `#` inside the title is not. */
export function closingHashes(r: TokenReader, i: number): boolean {
  const text = r.text;
  let j = i;
  while (j < text.length && text[j] === '#') j++;
  while (j < text.length && (text[j] === ' ' || text[j] === '\t')) j++;
  if (j >= text.length && !r.complete) return false;
  if (j >= text.length) {
    r.advance(j - i, '#');
    return true;
  }
  return literalChar(r, i);
}
