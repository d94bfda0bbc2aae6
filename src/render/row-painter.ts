/**
 * Drawing the row under the cursor, and only that row.
 *
 * The row being filled is redrawn in place; when new text only extends what is shown (the usual
 * case: words arriving) just the new bytes are written, otherwise the row is cleared with a
 * carriage return and `CSI K` and drawn again. A committed row ends with a newline and is never
 * touched again, so scrollback only ever holds finished rows. The bytes are collected and taken
 * once per piece of input, for one write.
 *
 * The one exception is a resize of the terminal: the row under the cursor may then take more than
 * one row of the screen (a terminal that re-wraps its lines to the new width splits it, wherever
 * the new edge falls), so all of those are cleared and the row is drawn again.
 */
import { type Cell, closing, draw, type Drawn, NOTHING_DRAWN, widthOf } from './cells.js';
import { textWidth } from '../terminal/width.js';

const CLEAR_ROW = '\r\u001b[K';
const up = (rows: number): string => (rows > 0 ? `\u001b[${rows}A` : '');
const down = (rows: number): string => (rows > 0 ? `\u001b[${rows}B` : '');

/**
 * Screen rows a row `width` columns wide takes in a terminal `columns` wide, counted cell by cell
 * when they are known: a wide character that does not fit at the end of a screen row starts the
 * next one.
 */
function rowsTaken(cells: readonly Cell[] | undefined, width: number, columns: number): number {
  if (cells === undefined) return Math.max(1, Math.ceil(width / columns));
  let rows = 1;
  let column = 0;
  for (const c of cells) {
    if (column + c.width > columns) {
      rows++;
      column = 0;
    }
    column += c.width;
  }
  return rows;
}

/**
 * Clear the `rows` screen rows that end at the cursor's, leaving the cursor at the start of the
 * first. Row by row: erasing the screen below the cursor when it stands at the top left is taken
 * by tmux (and others) as clearing the screen, whose rows go to the scrollback first.
 */
function clearRows(rows: number): string {
  let bytes = up(rows - 1);
  for (let r = 0; r < rows; r++) bytes += `${CLEAR_ROW}${down(r < rows - 1 ? 1 : 0)}`;
  return `${bytes}${up(rows - 1)}`;
}

export class RowPainter {
  readonly #color: boolean;
  readonly #hyperlinks: boolean;
  #out = '';
  /** What the current row shows, as the bytes that drew it from the default state. */
  #shown: Drawn = NOTHING_DRAWN;
  /** The cells last shown (the row being filled grows in place): only new ones need drawing. */
  #cells: readonly Cell[] | undefined;
  #count = 0;
  /** Columns the current row takes: how many screen rows it spans once the width changes. */
  #width = 0;

  constructor(color: boolean, hyperlinks: boolean) {
    this.#color = color;
    this.#hyperlinks = hyperlinks;
  }

  /** Make the current row show `cells`. */
  show(cells: readonly Cell[]): void {
    if (cells === this.#cells && cells.length >= this.#count) {
      // The same row, only longer: draw the new cells after the old ones.
      const added = draw(cells, this.#color, this.#hyperlinks, this.#count, { ...this.#shown, bytes: '' });
      this.#out += added.bytes;
      this.#shown = { ...added, bytes: this.#shown.bytes + added.bytes };
      for (let i = this.#count; i < cells.length; i++) this.#width += (cells[i] as Cell).width;
    } else {
      this.#showDrawn(draw(cells, this.#color, this.#hyperlinks));
      this.#width = widthOf(cells);
    }
    this.#cells = cells;
    this.#count = cells.length;
  }

  /** Show `cells` and finish the row: the cursor goes to the start of the next one. */
  commit(cells: readonly Cell[]): void {
    this.show(cells);
    this.finish();
  }

  /** Add plain text to the end of the current row as it is (code lines, which are not wrapped). */
  append(text: string): void {
    if (text === '') return;
    // A code line starts in the default style even after a styled prefix (quote bars).
    const bytes = `${closing(this.#shown)}${text}`;
    this.#out += bytes;
    this.#shown = { bytes: this.#shown.bytes + bytes, style: 0, link: undefined };
    this.#cells = undefined;
    this.#width += textWidth(text);
  }

  /** Finish the current row as it is shown. */
  finish(): void {
    this.#out += `${closing(this.#shown)}\n`;
    this.#forget();
  }

  /**
   * The terminal went from `before` columns to `now`: clear the screen rows the current row takes
   * and forget it, for the caller to draw it again (at the new width). A terminal that `reflows`
   * has re-wrapped it to `now` columns, the cursor at its end; one that does not has kept its rows
   * (cut at the new edge), the cursor on the last. `again`: draw it back as it was, for a code
   * line, which the terminal wraps itself.
   */
  resized(before: number, now: number, reflows: boolean, again = false): void {
    const shown = this.#shown;
    const width = this.#width;
    if (shown.bytes === '') return;
    const rows = rowsTaken(this.#cells, width, reflows ? now : before);
    this.#out += `${closing(shown)}${clearRows(rows)}`;
    this.#forget();
    if (again) {
      this.#out += shown.bytes;
      this.#shown = shown;
      this.#width = width;
    }
  }

  /** Put the terminal back in its default state (end of output). */
  settle(): void {
    this.#out += closing(this.#shown);
    this.#shown = { ...this.#shown, style: 0, link: undefined };
    this.#cells = undefined;
  }

  #forget(): void {
    this.#shown = NOTHING_DRAWN;
    this.#cells = undefined;
    this.#width = 0;
  }

  /** The bytes drawn since the last call. */
  take(): string {
    const out = this.#out;
    this.#out = '';
    return out;
  }

  #showDrawn(next: Drawn): void {
    const shown = this.#shown;
    if (next.bytes === shown.bytes) return;
    if (next.bytes.startsWith(shown.bytes)) {
      this.#out += next.bytes.slice(shown.bytes.length);
    } else {
      this.#out += `${closing(shown)}${CLEAR_ROW}${next.bytes}`;
    }
    this.#shown = next;
  }
}
