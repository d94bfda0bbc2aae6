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
 * is shown literally at the end of the line if it is on the last row, a `]` met inside a link's
 * text gives a bracket back, a link whose URL completes gets its hyperlink. (A `[` itself waits
 * until its `](` or the line's end has arrived: inline-tokens.ts bracketOpen says why.) Each of those
 * re-interprets the current row from the state saved at its start, with the new knowledge.
 * An opener on a row already committed keeps its styling to the end of the line: the price of
 * never redrawing more than one row. Because the decisions depend only on the text, never on how
 * it was cut into pieces, the rows are the same whatever the pieces were.
 */
import { cell, type Cell } from './cells.js';
import { palette, type Style } from './style.js';
import { isSpace, spanStyle, type State } from './inline-state.js';
import { bracketClose, bracketOpen, closingHashes, codeOpen, delimiters, escape, inCode, inUrl, literalChar, type TokenReader } from './inline-tokens.js';
import { RowWrapper } from './row-wrapper.js';

export interface FlowOptions {
  /** Row width in columns, prefix included. */
  width: number | (() => number);
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
  /** Where the reader's text starts in the line (older text is no longer needed). */
  #base = 0;
  /**
   * The reader's text, state and decisions, as plain fields the token readers (inline-tokens.ts)
   * use directly: the hot path reads them for every character.
   */
  readonly #r: TokenReader;

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
  /** The state before the current token, copied: made once, called only when a row breaks. */
  readonly #tokenStart = (): State => this.#tokenState();

  constructor(options: FlowOptions) {
    this.#o = options;
    const start: State = { pos: 0, spans: [], prev: '', url: undefined, brackets: 0 };
    this.#r = {
      text: '',
      complete: false,
      state: start,
      literal: this.#literal,
      links: this.#links,
      rowStartPos: 0,
      hyperlinks: options.hyperlinks,
      color: options.color,
      emit: (char) => this.#emit(char),
      advance: (length, last) => this.#advance(length, last),
      rerun: (target) => this.#rerun(target),
    };
    this.#rows = new RowWrapper<State>(
      {
        width: options.width,
        firstPrefix: options.firstPrefix,
        restPrefix: options.restPrefix,
        onRow: options.onRow,
        onNewRow: (rowStart) => {
          this.#r.rowStartPos = rowStart.pos;
          this.#dropBefore(rowStart.pos);
        },
      },
      { ...start },
    );
  }

  /** More text of the line (no newline). */
  push(text: string): void {
    this.#r.text += text;
    this.#run(Number.POSITIVE_INFINITY);
  }

  /** The line is complete: settle what was pending and return the last row, which the caller commits. */
  end(): Cell[] {
    this.#r.complete = true;
    this.#run(Number.POSITIVE_INFINITY);
    // Openers still open on this row have no closer: they were markers after all, shown as text.
    for (;;) {
      const start = this.#rows.rowStart.pos;
      const stray = this.#r.state.spans.filter((span) => span.at >= start && !this.#literal.has(span.at));
      if (stray.length === 0) break;
      for (const span of stray) this.#literal.add(span.at);
      this.#rerun(this.#r.state.pos);
    }
    return this.current();
  }

  /**
   * The width changed (the terminal was resized): the current row is read again at the new
   * width, rows it no longer fits in finished as they fill, so what stays current fits.
   */
  rewrap(): void {
    this.#rerun(this.#r.state.pos, true);
  }

  /** The row being filled, as it should look now. */
  current(): Cell[] {
    return this.#rows.row;
  }

  #run(target: number): void {
    while (this.#r.state.pos < target && this.#step()) {
      // each step consumes one token
    }
  }

  /** Re-interpret the current row from its start up to `target`, with what is known now (and at the width asked now). */
  #rerun(target: number, newWidth = false): void {
    this.#r.state = { ...this.#rows.rowStart };
    this.#rows.restartRow(newWidth);
    this.#afterGap = false;
    this.#gapState = undefined;
    this.#run(target);
  }

  /** Interpret one token at the current position; false when more text is needed to decide. */
  #step(): boolean {
    const s = this.#r.state;
    const i = s.pos - this.#base;
    const text = this.#r.text;
    if (i >= text.length) return false;
    const token = this.#token;
    token.pos = s.pos;
    token.prev = s.prev;
    token.spans = s.spans;
    token.url = s.url;
    token.brackets = s.brackets;
    if (this.#afterGap && this.#gapState === undefined) this.#gapState = { ...s };
    const char = text[i] as string;
    const r = this.#r;
    const code = s.spans.at(-1);
    if (code?.kind === 'code') return inCode(r, code, i);
    if (s.url) return inUrl(r, s.url, i);
    switch (char) {
      case '\\':
        return escape(r, i);
      case '*':
      case '_':
      case '~':
        return delimiters(r, char, i);
      case '`':
        return codeOpen(r, i);
      case '[':
        return bracketOpen(r, i);
      case ']':
        return bracketClose(r, i);
      case '#':
        if (this.#o.heading && isSpace(s.prev)) return closingHashes(r, i);
        return literalChar(r, i);
      default:
        return literalChar(r, i);
    }
  }

  #advance(length: number, last: string): void {
    this.#r.state.pos += length;
    this.#r.state.prev = last;
  }

  #tokenState(): State {
    return { ...this.#token };
  }

  // ---- cells and wrapping -------------------------------------------------------------------

  #styleNow(): { style: Style; link: string | undefined } {
    const s = this.#r.state;
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
    // The state before the word, copied only at a word's start; the token's, only if a row breaks.
    const wordStart = this.#afterGap ? (this.#gapState ?? this.#tokenState()) : undefined;
    this.#afterGap = false;
    this.#gapState = undefined;
    this.#rows.text(next, wordStart, this.#tokenStart);
  }

  /** Text before `pos` is never read again: drop it (once enough has gathered to be worth it). */
  #dropBefore(pos: number): void {
    const drop = pos - this.#base;
    if (drop > 64) {
      this.#r.text = this.#r.text.slice(drop);
      this.#base = pos;
    }
  }
}
