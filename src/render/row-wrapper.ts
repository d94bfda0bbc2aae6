/**
 * Cells → rows of one line, wrapped at word boundaries by svc rather than by the terminal. When a
 * word no longer fits, the row is finished (handed to `onRow`, never touched again) and the word
 * starts the next row whole; only a word longer than a row is broken. Spaces between words wait
 * until another word follows on the same row, so no row ends in a space.
 *
 * The wrapper knows nothing of Markdown: what it keeps of the reader's position (`S`, the inline
 * state where a row or a word starts) is handed back so the reader can re-read the current row
 * (line-flow.ts), and is otherwise opaque here.
 */
import { type Cell, widthOf } from './cells.js';

export interface WrapOptions<S> {
  /**
   * Row width in columns, prefix included; a function is asked again at each new row, so a
   * terminal resized while a paragraph streams gets the rest of it at its new width.
   */
  width: number | (() => number);
  /** Cells before the text on the first row, and on each row after it (the hanging indent). */
  firstPrefix: readonly Cell[];
  restPrefix: readonly Cell[];
  /** A finished row, prefix included; it will not change. */
  onRow(cells: Cell[]): void;
  /** A new row starts at reading position `start` (text before it is never read again). */
  onNewRow(start: S): void;
}

/** Where the last word on the row (and the spaces before it) start, and the reader's state before it. */
interface WordStart<S> {
  index: number;
  gapStart: number;
  state: S;
}

export class RowWrapper<S> {
  readonly #o: WrapOptions<S>;
  #row: Cell[];
  #rowWidth: number;
  /** Cells of the prefix at the start of the row: the text comes after them. */
  #contentStart: number;
  #rowIsFirst = true;
  #rowStart: S;
  /** Spaces after the last word, placed only when another word follows on the same row. */
  #gap: Cell[] = [];
  #word: WordStart<S> | undefined;
  /** The width of the row being filled: fixed for it, read again for the next. */
  #width: number;

  constructor(options: WrapOptions<S>, start: S) {
    this.#o = options;
    this.#width = this.#widthNow();
    this.#row = [...options.firstPrefix];
    this.#rowWidth = widthOf(options.firstPrefix);
    this.#contentStart = this.#row.length;
    this.#rowStart = start;
  }

  /** The row being filled, as it should look now. */
  get row(): Cell[] {
    return this.#row;
  }

  /** The reader's state where the current row starts. */
  get rowStart(): S {
    return this.#rowStart;
  }

  /**
   * Start the current row again, empty (the reader re-reads it from `rowStart`); `newWidth`: at
   * the width asked now, after a resize (the rows it fills no longer are then finished as it goes).
   */
  restartRow(newWidth = false): void {
    if (newWidth) this.#width = this.#widthNow();
    this.#row = [...(this.#rowIsFirst ? this.#o.firstPrefix : this.#o.restPrefix)];
    this.#rowWidth = widthOf(this.#row);
    this.#contentStart = this.#row.length;
    this.#gap = [];
    this.#word = undefined;
  }

  /** A space: kept back until another word follows on this row. */
  space(cell: Cell): void {
    if (this.#row.length > this.#contentStart || this.#gap.length > 0) this.#gap.push(cell);
  }

  /**
   * A visible cell. `wordStart` is the reader's state before the word it begins, when it follows
   * a space (undefined otherwise); `tokenStart` gives the state before this cell's token, where a
   * new row would start (asked only when a row breaks, so the reader need not copy its state for
   * every character).
   */
  text(cell: Cell, wordStart: S | undefined, tokenStart: () => S): void {
    const width = this.#width;
    if (wordStart !== undefined) {
      const state = wordStart;
      const gapWidth = widthOf(this.#gap);
      if (this.#row.length > this.#contentStart && this.#rowWidth + gapWidth + cell.width > width) {
        this.#o.onRow(this.#row);
        this.#newRow(state);
      } else {
        const gapStart = this.#row.length;
        this.#place(this.#gap);
        if (this.#row.length > this.#contentStart) this.#word = { index: this.#row.length, gapStart, state };
      }
      this.#gap = [];
    } else if (this.#row.length > this.#contentStart && this.#rowWidth + cell.width > width) {
      const word = this.#word;
      if (word !== undefined && word.index > this.#contentStart) {
        // The word no longer fits: it moves whole to the next row.
        const moved = this.#row.splice(word.index);
        this.#row.length = word.gapStart;
        this.#o.onRow(this.#row);
        this.#newRow(word.state);
        this.#place(moved);
        if (this.#rowWidth + cell.width > width) {
          this.#o.onRow(this.#row);
          this.#newRow(tokenStart());
        }
      } else {
        // A word longer than the row is the one thing broken.
        this.#o.onRow(this.#row);
        this.#newRow(tokenStart());
      }
    }
    this.#place([cell]);
  }

  #place(cells: readonly Cell[]): void {
    for (const c of cells) {
      this.#row.push(c);
      this.#rowWidth += c.width;
    }
  }

  #widthNow(): number {
    const { width } = this.#o;
    return typeof width === 'function' ? width() : width;
  }

  #newRow(start: S): void {
    this.#width = this.#widthNow();
    this.#row = [...this.#o.restPrefix];
    this.#rowWidth = widthOf(this.#row);
    this.#contentStart = this.#row.length;
    this.#rowIsFirst = false;
    this.#rowStart = start;
    this.#word = undefined;
    this.#gap = [];
    this.#o.onNewRow(start);
  }
}
