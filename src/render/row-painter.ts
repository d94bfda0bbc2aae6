/**
 * Drawing the row under the cursor, and only that row.
 *
 * The row being filled is redrawn in place; when new text only extends what is shown (the usual
 * case: words arriving) just the new bytes are written, otherwise the row is cleared with a
 * carriage return and `CSI K` and drawn again. A committed row ends with a newline and is never
 * touched again, so scrollback only ever holds finished rows. The bytes are collected and taken
 * once per piece of input, for one write.
 */
import { type Cell, closing, draw, type Drawn, NOTHING_DRAWN } from './cells.js';

const CLEAR_ROW = '\r\u001b[K';

export class RowPainter {
  readonly #color: boolean;
  readonly #hyperlinks: boolean;
  #out = '';
  /** What the current row shows, as the bytes that drew it from the default state. */
  #shown: Drawn = NOTHING_DRAWN;
  /** The cells last shown (the row being filled grows in place): only new ones need drawing. */
  #cells: readonly Cell[] | undefined;
  #count = 0;

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
    } else {
      this.#showDrawn(draw(cells, this.#color, this.#hyperlinks));
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
  }

  /** Finish the current row as it is shown. */
  finish(): void {
    this.#out += `${closing(this.#shown)}\n`;
    this.#shown = NOTHING_DRAWN;
    this.#cells = undefined;
  }

  /** Put the terminal back in its default state (end of output). */
  settle(): void {
    this.#out += closing(this.#shown);
    this.#shown = { ...this.#shown, style: 0, link: undefined };
    this.#cells = undefined;
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
