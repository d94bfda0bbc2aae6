/**
 * Tables as they stream: a line that looks like a header row is held (drawn as a preview) until
 * the next line shows whether it is a delimiter row; then the table is laid out once from its
 * header (table.ts) and each body row is drawn as it completes. A held line that was not a
 * header after all is given back as a line of text.
 */
import { indentOf } from './block-start.js';
import { cellsOf } from './cells.js';
import { plainFlow, type ProseOptions } from './prose-flow.js';
import type { RowPainter } from './row-painter.js';
import { PLAIN } from './style.js';
import { layoutTable, type parseDelimiter, splitRow, type TableLayout, tableRowCells, tableRuleCells } from './table.js';

export class TableBlock {
  /** The table being drawn, once its delimiter row came. */
  layout: TableLayout | undefined;
  /** A line that looks like a table header, shown as a preview until the next line tells. */
  heldHeader: string | undefined;
  readonly #painter: RowPainter;
  readonly #style: { color: boolean; hyperlinks: boolean };

  constructor(painter: RowPainter, style: { color: boolean; hyperlinks: boolean }) {
    this.#painter = painter;
    this.#style = style;
  }

  /** A complete row: held when it may be a header, drawn when a table is open. */
  row(line: string, header: boolean): void {
    if (header) {
      this.heldHeader = line;
      return;
    }
    for (const row of tableRowCells(splitRow(line), this.layout as TableLayout, false, this.#style)) this.#painter.commit(row);
  }

  /** The delimiter row came: lay the table out from the held header and draw it. */
  start(header: string[], aligns: ReturnType<typeof parseDelimiter> & object, width: number): void {
    const indent = indentOf(this.heldHeader ?? '', 0).columns;
    const table = layoutTable(header, aligns, width, indent);
    this.heldHeader = undefined;
    this.layout = table;
    for (const row of tableRowCells(header, table, true, this.#style)) this.#painter.commit(row);
    this.#painter.commit(tableRuleCells(table));
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
