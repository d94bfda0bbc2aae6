/**
 * Tables as they stream: a line that looks like a header row is held (drawn as a preview) until
 * the next line shows whether it is a delimiter row; then its rows are held (the row being
 * written still shown as a preview) until the table ends, and it is laid out once from all of
 * them (table.ts), as wide as its content. Past {@link HELD_ROWS} rows the layout is fixed from
 * those and the rest is drawn as each row completes. A held line that was not a header after
 * all is given back as a line of text.
 */
import { indentOf } from './block-start.js';
import { cellsOf } from './cells.js';
import { plainFlow, type ProseOptions } from './prose-flow.js';
import type { RowPainter } from './row-painter.js';
import { PLAIN } from './style.js';
import { layoutFromCells, mayBeDelimiter, parseDelimiter, refit, splitRow, type TableLayout, tableRowCells, tableRuleCells } from './table.js';

/** Rows held to lay a table out from its content; a longer table streams on under their widths. */
export const HELD_ROWS = 40;

export class TableBlock {
  /** The table being drawn, once its delimiter row came. */
  layout: TableLayout | undefined;
  /** A line that looks like a table header, shown as a preview until the next line tells. */
  heldHeader: string | undefined;
  readonly #painter: RowPainter;
  readonly #style: { color: boolean; hyperlinks: boolean };
  /** The table whose rows are held until it ends (or HELD_ROWS), to lay it out from its content. */
  #held: { header: string[]; rows: string[][]; aligns: NonNullable<ReturnType<typeof parseDelimiter>>; indent: number } | undefined;

  constructor(painter: RowPainter, style: { color: boolean; hyperlinks: boolean }) {
    this.#painter = painter;
    this.#style = style;
  }

  /**
   * What the start of a new line means to the table: more of it is needed to tell (`wait`), it
   * was the delimiter row under a held header and the table has begun (`started`), it is a row
   * of the open table (`row`), or the table (or a held header, drawn as text) is over (`none`).
   */
  follow(line: string, complete: boolean, width: number, prose: () => ProseOptions): 'wait' | 'started' | 'row' | 'none' {
    if (this.heldHeader !== undefined) {
      if (!complete && mayBeDelimiter(line)) return 'wait';
      const header = splitRow(this.heldHeader);
      const aligns = complete ? parseDelimiter(line) : undefined;
      if (aligns !== undefined && aligns.length === header.length) {
        this.start(header, aligns, width);
        return 'started';
      }
      this.releaseHeader(prose());
    }
    if (this.layout) {
      const { end } = indentOf(line, 0);
      if (end >= line.length && !complete) return 'wait';
      if (line[end] === '|') return 'row';
      this.close(width);
      this.layout = undefined;
    }
    return 'none';
  }

  /** A complete row: held when it may be a header, drawn when a table is open (`width`: the window's now). */
  row(line: string, header: boolean, width: number): void {
    if (header) {
      this.heldHeader = line;
      return;
    }
    if (this.#held) {
      this.#held.rows.push(splitRow(line));
      if (this.#held.rows.length >= HELD_ROWS) this.close(width);
      return;
    }
    for (const row of tableRowCells(splitRow(line), this.layout as TableLayout, false, this.#style)) this.#painter.commit(row);
  }

  /** The delimiter row came: hold the table's rows from here, to lay it out from all of them. */
  start(header: string[], aligns: ReturnType<typeof parseDelimiter> & object, width: number): void {
    const indent = indentOf(this.heldHeader ?? '', 0).columns;
    this.heldHeader = undefined;
    this.#held = { header, rows: [], aligns, indent };
    // Provisional (the rows still to come decide the widths); it marks the table as open.
    this.layout = layoutFromCells([header], aligns, width, indent, this.#style);
  }

  /**
   * The table ended, or enough of it is held: lay it out from its cells, in a window `width`
   * wide, and draw what is held. Rows after it (past HELD_ROWS) are drawn under the same layout
   * as they come.
   */
  close(width: number): void {
    const held = this.#held;
    if (!held) return;
    this.#held = undefined;
    const table = layoutFromCells([held.header, ...held.rows], held.aligns, width, held.indent, this.#style);
    this.layout = table;
    for (const row of tableRowCells(held.header, table, true, this.#style)) this.#painter.commit(row);
    this.#painter.commit(tableRuleCells(table));
    for (const cells of held.rows) for (const row of tableRowCells(cells, table, false, this.#style)) this.#painter.commit(row);
  }

  /** The window is now `width` wide: rows still to come of a table already drawn are fitted to it. */
  resized(width: number): void {
    if (this.layout && !this.#held) this.layout = refit(this.layout, width);
  }

  /** The held line was not a table header after all: it is a line of text. */
  releaseHeader(prose: ProseOptions): void {
    const header = this.heldHeader as string;
    this.heldHeader = undefined;
    const { columns, end } = indentOf(header, 0);
    const indent = cellsOf(' '.repeat(columns), PLAIN);
    const flow = plainFlow(indent, indent, PLAIN, false, prose);
    flow.push(header.slice(end));
    this.#painter.commit(flow.end());
  }
}
