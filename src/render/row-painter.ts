/**
 * Drawing the row under the cursor, and only that row.
 *
 * The row being filled is redrawn in place; when new text only extends what is shown (the usual
 * case: words arriving) just the new bytes are written, otherwise the row is cleared with a
 * carriage return and `CSI K` and drawn again. A committed row ends with a newline and is never
 * touched again, so scrollback only ever holds finished rows. The bytes are collected and taken
 * once per piece of input, for one write.
 */
import { type Cell, closing, draw, type Drawn } from './cells.js';

const CLEAR_ROW = '\r\u001b[K';

export class RowPainter {
  readonly #color: boolean;
  readonly #hyperlinks: boolean;
  #out = '';
  /** What the current row shows, as the bytes that drew it from the default state. */
  #shown: Drawn = { bytes: '', styled: false, linked: false };

  constructor(color: boolean, hyperlinks: boolean) {
    this.#color = color;
    this.#hyperlinks = hyperlinks;
  }

  /** Make the current row show `cells`. */
  show(cells: readonly Cell[]): void {
    this.#showDrawn(draw(cells, this.#color, this.#hyperlinks));
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
    this.#shown = { bytes: this.#shown.bytes + bytes, styled: false, linked: false };
  }

  /** Finish the current row as it is shown. */
  finish(): void {
    this.#out += `${closing(this.#shown)}\n`;
    this.#shown = { bytes: '', styled: false, linked: false };
  }

  /** Whether anything is shown on the current row. */
  get rowStarted(): boolean {
    return this.#shown.bytes !== '';
  }

  /** Put the terminal back in its default state (end of output). */
  settle(): void {
    this.#out += closing(this.#shown);
    this.#shown = { ...this.#shown, styled: false, linked: false };
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
