/**
 * One source line of prose, styled and wrapped as it arrives.
 *
 * The text of a line comes in pieces. Each character is interpreted once, left to right, as soon
 * as enough of the text is there to decide (a run of `*` needs the character after it), so a
 * marker is hidden and the text after it styled the moment it is typed, never later. Words are
 * wrapped here, not by the terminal: when a word no longer fits, the row is finished
 * ("committed", handed to `onRow`) and never touched again, and the word starts the next row.
 * Only the row being filled can still change, which is what lets the terminal redraw just that
 * row.
 *
 * What a later character can change is limited to that row: an opener that never closes (`*args`)
 * is shown literally at the end of the line if it is on the last row, a `[` that turns out not to
 * start a link gets its bracket back, a link whose URL completes gets its hyperlink. Each of those
 * re-interprets the current row from the state saved at its start, with the new knowledge.
 * An opener on a row already committed keeps its styling to the end of the line: the price of
 * never redrawing more than one row. Because the decisions depend only on the text, never on how
 * it was cut into pieces, the rows are the same whatever the pieces were.
 */
import { cell, type Cell } from './cells.js';
import { safeHyperlink } from './hyperlinks.js';
import { palette, type Style } from './style.js';
import { ASCII_PUNCTUATION, isPunctuation, isSpace, spanStyle, type Span, type State, type UrlPart } from './inline-state.js';
import { RowWrapper } from './row-wrapper.js';

export interface FlowOptions {
  /** Row width in columns, prefix included. */
  width: number;
  /** Cells before the text on the first row (list bullet, quote bars, indentation). */
  firstPrefix: readonly Cell[];
  /** Cells before the text on each following row (the hanging indent). */
  restPrefix: readonly Cell[];
  /** Style added to every cell of text (headings). */
  base: Style;
  /** An ATX heading line: a closing run of `#` is hidden. */
  heading: boolean;
  color: boolean;
  hyperlinks: boolean;
  /** A finished row, prefix included; it will not change. */
  onRow(cells: Cell[]): void;
}

export class LineFlow {
  readonly #o: FlowOptions;
  /** The line's text from position `#base` on (older text is no longer needed). */
  #buf = '';
  #base = 0;
  #complete = false;
  #state: State = { pos: 0, spans: [], prev: '', url: undefined, brackets: 0 };

  /** Openers found not to open anything, and hyperlink targets of completed links, by position. */
  readonly #literal = new Set<number>();
  readonly #links = new Map<number, string>();

  /** The rows of the line: wrapping and committing (row-wrapper.ts). */
  readonly #rows: RowWrapper<State>;
  /**
   * The state before the current token, updated in place (an object per token would be most of
   * the renderer's time); copied only when a row breaks there.
   */
  readonly #token: State = { pos: 0, spans: [], prev: '', url: undefined, brackets: 0 };
  /** The last text was a space, and the state before the first token after it (a word's start). */
  #afterGap = false;
  #gapState: State | undefined;

  constructor(options: FlowOptions) {
    this.#o = options;
    this.#rows = new RowWrapper<State>(
      {
        width: options.width,
        firstPrefix: options.firstPrefix,
        restPrefix: options.restPrefix,
        onRow: options.onRow,
        onNewRow: (start) => this.#dropBefore(start.pos),
      },
      { ...this.#state },
    );
  }

  /** More text of the line (no newline). */
  push(text: string): void {
    this.#buf += text;
    this.#run(Number.POSITIVE_INFINITY);
  }

  /** The line is complete: settle what was pending and return the last row, which the caller commits. */
  end(): Cell[] {
    this.#complete = true;
    this.#run(Number.POSITIVE_INFINITY);
    // Openers still open on this row have no closer: they were markers after all, shown as text.
    for (;;) {
      const start = this.#rows.rowStart.pos;
      const stray = this.#state.spans.filter((span) => span.at >= start && !this.#literal.has(span.at));
      if (stray.length === 0) break;
      for (const span of stray) this.#literal.add(span.at);
      this.#rerun(this.#state.pos);
    }
    return this.current();
  }

  /** The row being filled, as it should look now. */
  current(): Cell[] {
    return this.#rows.row;
  }

  #run(target: number): void {
    while (this.#state.pos < target && this.#step()) {
      // each step consumes one token
    }
  }

  /** Re-interpret the current row from its start up to `target`, with what is known now. */
  #rerun(target: number): void {
    this.#state = { ...this.#rows.rowStart };
    this.#rows.restartRow();
    this.#afterGap = false;
    this.#gapState = undefined;
    this.#run(target);
  }

  /** Interpret one token at the current position; false when more text is needed to decide. */
  #step(): boolean {
    const s = this.#state;
    const i = s.pos - this.#base;
    const text = this.#buf;
    if (i >= text.length) return false;
    const token = this.#token;
    token.pos = s.pos;
    token.prev = s.prev;
    token.spans = s.spans;
    token.url = s.url;
    token.brackets = s.brackets;
    if (this.#afterGap && this.#gapState === undefined) this.#gapState = { ...s };
    const char = text[i] as string;
    const code = s.spans.at(-1);
    if (code?.kind === 'code') return this.#inCode(code, i);
    if (s.url) return this.#inUrl(s.url, i);
    switch (char) {
      case '\\':
        return this.#escape(i);
      case '*':
      case '_':
      case '~':
        return this.#delimiters(char, i);
      case '`':
        return this.#codeOpen(i);
      case '[':
        return this.#bracketOpen();
      case ']':
        return this.#bracketClose(i);
      case '#':
        if (this.#o.heading && isSpace(s.prev)) return this.#closingHashes(i);
        return this.#literalChar(i);
      default:
        return this.#literalChar(i);
    }
  }

  // ---- tokens -------------------------------------------------------------------------------

  #literalChar(i: number): boolean {
    const text = this.#buf;
    const code = text.codePointAt(i) as number;
    if (code >= 0xd800 && code <= 0xdbff && i + 1 >= text.length && !this.#complete) return false;
    const char = String.fromCodePoint(code);
    this.#emit(char);
    this.#advance(char.length, char);
    return true;
  }

  #escape(i: number): boolean {
    const text = this.#buf;
    if (i + 1 >= text.length && !this.#complete) return false;
    const next = text[i + 1] ?? '';
    if (ASCII_PUNCTUATION.test(next)) {
      this.#emit(next);
      this.#advance(2, next);
    } else {
      this.#emit('\\');
      this.#advance(1, '\\');
    }
    return true;
  }

  /** A run of `*`, `_` or `~`: closes and opens spans by CommonMark's flanking rules. */
  #delimiters(char: string, i: number): boolean {
    const text = this.#buf;
    let j = i;
    while (j < text.length && text[j] === char) j++;
    if (j >= text.length && !this.#complete) return false;
    const s = this.#state;
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
    const opened = opening.filter((span) => !this.#literal.has(span.at));
    const shown = run - closed - opened.reduce((sum, span) => sum + span.length, 0);
    this.#state = { ...s, spans };
    for (let k = 0; k < shown; k++) this.#emit(char);
    this.#state = { ...this.#state, spans: [...spans, ...opened] };
    this.#advance(run, char);
    return true;
  }

  #codeOpen(i: number): boolean {
    const text = this.#buf;
    let j = i;
    while (j < text.length && text[j] === '`') j++;
    if (j >= text.length && !this.#complete) return false;
    const run = j - i;
    const s = this.#state;
    if (this.#literal.has(s.pos)) {
      for (let k = 0; k < run; k++) this.#emit('`');
    } else {
      this.#state = { ...s, spans: [...s.spans, { kind: 'code', char: '`', length: run, at: s.pos }] };
      // Without colour a code span would look like plain text: its backticks stay.
      if (!this.#o.color) for (let k = 0; k < run; k++) this.#emit('`');
    }
    this.#advance(run, '`');
    return true;
  }

  #inCode(span: Span, i: number): boolean {
    const text = this.#buf;
    if (text[i] !== '`') return this.#literalChar(i);
    let j = i;
    while (j < text.length && text[j] === '`') j++;
    if (j >= text.length && !this.#complete) return false;
    const run = j - i;
    if (run === span.length) {
      if (!this.#o.color) for (let k = 0; k < run; k++) this.#emit('`');
      const s = this.#state;
      this.#state = { ...s, spans: s.spans.slice(0, -1) };
    } else {
      for (let k = 0; k < run; k++) this.#emit('`');
    }
    this.#advance(run, '`');
    return true;
  }

  #bracketOpen(): boolean {
    const s = this.#state;
    if (this.#literal.has(s.pos)) {
      this.#emit('[');
    } else if (s.spans.some((span) => span.kind === 'link')) {
      this.#emit('[');
      this.#state = { ...this.#state, brackets: s.brackets + 1 };
    } else {
      this.#state = { ...s, spans: [...s.spans, { kind: 'link', char: '[', length: 1, at: s.pos }] };
    }
    this.#advance(1, '[');
    return true;
  }

  #bracketClose(i: number): boolean {
    const s = this.#state;
    const index = s.spans.findLastIndex((span) => span.kind === 'link');
    const link = s.spans[index];
    if (link === undefined || s.brackets > 0) {
      this.#emit(']');
      this.#state = { ...this.#state, brackets: Math.max(0, s.brackets - 1) };
      this.#advance(1, ']');
      return true;
    }
    const text = this.#buf;
    if (i + 1 >= text.length && !this.#complete) return false;
    const spans = s.spans.filter((_, k) => k !== index);
    if (text[i + 1] === '(') {
      // `[text](url)` is shown as `text (url)`: the URL stays visible, dimmed, so it can be read
      // (and copied) even where the terminal has no hyperlinks.
      this.#state = { ...s, spans };
      this.#emit(' ');
      this.#state = { ...this.#state, url: { at: link.at, depth: 0, text: '' } };
      this.#emit('(');
      this.#advance(2, '(');
      return true;
    }
    // Not a link: its `[` was a bracket. Redraw the row to show it if it is on this row.
    this.#literal.add(link.at);
    if (link.at >= this.#rows.rowStart.pos) this.#rerun(s.pos);
    else this.#state = { ...s, spans };
    return true;
  }

  #inUrl(url: UrlPart, i: number): boolean {
    const text = this.#buf;
    const char = text[i] as string;
    if (char === ')' && url.depth === 0) {
      this.#emit(')');
      const s = this.#state;
      this.#state = { ...s, url: undefined };
      this.#advance(1, ')');
      const target = this.#o.hyperlinks ? safeHyperlink(url.text) : undefined;
      if (target !== undefined && !this.#links.has(url.at)) {
        // The link is complete: draw its text and URL on this row again, now as a hyperlink.
        this.#links.set(url.at, target);
        this.#rerun(this.#state.pos);
      }
      return true;
    }
    const depth = char === '(' ? url.depth + 1 : char === ')' ? url.depth - 1 : url.depth;
    const code = text.codePointAt(i) as number;
    if (code >= 0xd800 && code <= 0xdbff && i + 1 >= text.length && !this.#complete) return false;
    const whole = String.fromCodePoint(code);
    this.#emit(whole);
    this.#state = { ...this.#state, url: { ...url, depth, text: url.text + whole } };
    this.#advance(whole.length, whole);
    return true;
  }

  /** A closing sequence of an ATX heading (`## Title ##`) is hidden; `#` inside the title is not. */
  #closingHashes(i: number): boolean {
    const text = this.#buf;
    let j = i;
    while (j < text.length && text[j] === '#') j++;
    while (j < text.length && (text[j] === ' ' || text[j] === '\t')) j++;
    if (j >= text.length && !this.#complete) return false;
    if (j >= text.length) {
      this.#advance(j - i, '#');
      return true;
    }
    return this.#literalChar(i);
  }

  #advance(length: number, last: string): void {
    this.#state.pos += length;
    this.#state.prev = last;
  }

  #tokenState(): State {
    return { ...this.#token };
  }

  // ---- cells and wrapping -------------------------------------------------------------------

  #styleNow(): { style: Style; link: string | undefined } {
    const s = this.#state;
    let style = this.#o.base;
    let link: string | undefined;
    for (const span of s.spans) {
      if (span.kind === 'link') {
        style |= palette.linkText;
        link = this.#links.get(span.at);
      } else {
        style |= spanStyle[span.kind];
      }
    }
    if (s.url) {
      style |= palette.linkUrl;
      link = this.#links.get(s.url.at);
    }
    return { style, link };
  }

  #emit(char: string): void {
    const { style, link } = this.#styleNow();
    const next = cell(char === '\t' ? ' ' : char, style, link);
    if (next.text === ' ') {
      this.#rows.space(next);
      this.#afterGap = true;
      this.#gapState = undefined;
      return;
    }
    const afterGap = this.#afterGap;
    const gapState = this.#gapState;
    this.#afterGap = false;
    this.#gapState = undefined;
    this.#rows.text(next, afterGap, () => gapState ?? this.#tokenState(), () => this.#tokenState());
  }

  /** Text before `pos` is never read again: drop it (once enough has gathered to be worth it). */
  #dropBefore(pos: number): void {
    const drop = pos - this.#base;
    if (drop > 64) {
      this.#buf = this.#buf.slice(drop);
      this.#base = pos;
    }
  }
}
