/**
 * GFM tables, laid out row by row as they stream.
 *
 * A table's natural column widths are known only once it has ended. Its rows are held until it
 * ends (table-block.ts), up to a bound, and it is laid out from all of them: each column as wide
 * as its content, never stretched to the terminal. A longer table is laid out from the rows held
 * when the bound is reached, the rest streaming under those widths. A cell
 * longer than its column wraps inside it, at word boundaries, so every row can be drawn, aligned,
 * as soon as its source line is complete. While a row's line is still arriving its raw text is shown dimmed on
 * the current row (only its end, if it is longer than the row), then replaced by the laid-out
 * row: that preview never leaves the current row, so it never reaches the scrollback.
 */
import { type Cell, cellsOf, widthOf } from './cells.js';
import { LineFlow } from './line-flow.js';
import { palette, PLAIN, type Style } from './style.js';

export type Align = 'left' | 'center' | 'right';

export interface TableLayout {
  indent: number;
  widths: number[];
  aligns: Align[];
  /** Each column's widest cell and longest word, as drawn: what the widths are fitted from. */
  natural: number[];
  longest: number[];
}

const SEPARATOR = ' │ ';
const MAX_TABLE_WIDTH = 120;

/** The cells of a row: outer pipes dropped, split on pipes that are not escaped. */
export function splitRow(line: string): string[] {
  let text = line.trim();
  if (text.startsWith('|')) text = text.slice(1);
  if (text.endsWith('|') && !text.endsWith('\\|')) text = text.slice(0, -1);
  const cells: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (char === '\\' && text[i + 1] === '|') {
      current += '|';
      i++;
    } else if (char === '|') {
      cells.push(current.trim());
      current = '';
    } else {
      current += char;
    }
  }
  cells.push(current.trim());
  return cells;
}

const DELIMITER = /^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;
const DELIMITER_SO_FAR = /^[ \t]*\|?[-:| \t]*$/;

/** Whether the line so far may still be a delimiter line (`|---|:--:|`). */
export function mayBeDelimiter(line: string): boolean {
  return DELIMITER_SO_FAR.test(line);
}

/** The column alignments of a complete delimiter line, or undefined when it is not one. */
export function parseDelimiter(line: string): Align[] | undefined {
  if (!DELIMITER.test(line)) return undefined;
  return splitRow(line).map((cell) => {
    const left = cell.startsWith(':');
    const right = cell.endsWith(':');
    return left && right ? 'center' : right ? 'right' : 'left';
  });
}

/**
 * Column widths from the cells themselves (the header and the rows held so far): each column as
 * wide as its widest cell when the table fits, so a small table stays small; else narrower, a
 * cell longer than its column wrapping inside it (see {@link fitColumns}).
 */
export function layoutFromCells(rows: readonly string[][], aligns: Align[], columns: number, indent: number, options: Options): TableLayout {
  const count = rows[0]!.length;
  const natural: number[] = [];
  const longest: number[] = [];
  for (let i = 0; i < count; i++) {
    let widest = 3;
    let word = 0;
    for (const row of rows) {
      const measured = measure(row[i] ?? '', options);
      widest = Math.max(widest, measured.width);
      word = Math.max(word, measured.longest);
    }
    natural.push(widest);
    longest.push(word);
  }
  const layout = { indent, widths: natural, aligns: rows[0]!.map((_, i) => aligns[i] ?? 'left'), natural, longest };
  return { ...layout, widths: fitColumns(natural, longest, room(count, columns, indent)) };
}

/**
 * The layout for a window now `columns` wide: the same when the table still fits, else its
 * columns fitted again to the window (rows drawn before keep their widths).
 */
export function refit(layout: TableLayout, columns: number): TableLayout {
  const count = layout.widths.length;
  const space = room(count, columns, layout.indent);
  if (layout.widths.reduce((sum, width) => sum + width, 0) <= space) return layout;
  return { ...layout, widths: fitColumns(layout.natural, layout.longest, space) };
}

/** Columns left for the cells of `count` columns in a window `columns` wide. */
function room(count: number, columns: number, indent: number): number {
  return Math.max(count, Math.min(columns, MAX_TABLE_WIDTH) - indent - SEPARATOR.length * (count - 1));
}

/**
 * Widths for columns that want `natural` columns, in `room`. When they do not all fit, each
 * column keeps room for its longest word, so no word is broken while another column has room to
 * give, and what is left is shared in proportion to what each wants beyond that. When even the
 * longest words do not fit side by side, each column gets a share in proportion to its longest
 * word (at least three, or one in a very narrow window, so the table stays inside it).
 */
export function fitColumns(natural: readonly number[], longest: readonly number[], room: number): number[] {
  const sum = (widths: readonly number[]) => widths.reduce((total, width) => total + width, 0);
  if (sum(natural) <= room) return [...natural];
  const least = natural.map((width, i) => Math.min(width, Math.max(3, longest[i] ?? 0)));
  const leastTotal = sum(least);
  if (leastTotal > room) {
    const widths = least.map((width) => Math.max(3, Math.floor((width * room) / leastTotal)));
    return sum(widths) <= room ? widths : least.map((width) => Math.max(1, Math.floor((width * room) / leastTotal)));
  }
  const spare = room - leastTotal;
  const extra = sum(natural) - leastTotal;
  const widths = least.map((width, i) => width + Math.floor(((natural[i]! - width) * spare) / extra));
  // What the rounding down left goes a column at a time to those that want more.
  for (let left = room - sum(widths), i = 0; left > 0 && i < widths.length; i++) {
    const more = Math.min(left, natural[i]! - widths[i]!);
    widths[i] = widths[i]! + more;
    left -= more;
  }
  return widths;
}

/** A cell's text as drawn: its width, and its longest word's. */
function measure(text: string, options: Options): { width: number; longest: number } {
  let width = 0;
  let longest = 0;
  let word = 0;
  for (const row of cellRows(text, Number.POSITIVE_INFINITY, PLAIN, options)) {
    for (const c of row) {
      width += c.width;
      word = c.text === ' ' ? 0 : word + c.width;
      longest = Math.max(longest, word);
    }
  }
  return { width, longest };
}

interface Options {
  color: boolean;
  hyperlinks: boolean;
}

/** One cell's text, styled and wrapped to its column: one array of cells per row. */
function cellRows(text: string, width: number, base: Style, options: Options): Cell[][] {
  const rows: Cell[][] = [];
  const flow = new LineFlow({ width, firstPrefix: [], restPrefix: [], base, heading: false, ...options, onRow: (cells) => rows.push(cells) });
  flow.push(text);
  rows.push(flow.end());
  return rows;
}

function pad(cells: Cell[], width: number, align: Align, last: boolean): Cell[] {
  const free = Math.max(0, width - widthOf(cells));
  const before = align === 'right' ? free : align === 'center' ? Math.floor(free / 2) : 0;
  const after = last ? 0 : free - before;
  return [...cellsOf(' '.repeat(before), PLAIN), ...cells, ...cellsOf(' '.repeat(after), PLAIN)];
}

/** The terminal rows of one table row (a cell that wraps makes the row taller). */
export function tableRowCells(texts: string[], layout: TableLayout, header: boolean, options: Options): Cell[][] {
  const base = header ? palette.tableHeader : PLAIN;
  const columns = layout.widths.map((width, i) => cellRows(texts[i] ?? '', width, base, options));
  const height = Math.max(...columns.map((rows) => rows.length));
  const rows: Cell[][] = [];
  for (let r = 0; r < height; r++) {
    const row: Cell[] = cellsOf(' '.repeat(layout.indent), PLAIN);
    layout.widths.forEach((width, i) => {
      if (i > 0) row.push(...cellsOf(SEPARATOR, palette.tableBorder));
      row.push(...pad(columns[i]?.[r] ?? [], width, layout.aligns[i] ?? 'left', i === layout.widths.length - 1));
    });
    rows.push(row);
  }
  return rows;
}

/** The line under the header. */
export function tableRuleCells(layout: TableLayout): Cell[] {
  const line = layout.widths.map((width) => '─'.repeat(width)).join('─┼─');
  return [...cellsOf(' '.repeat(layout.indent), PLAIN), ...cellsOf(line, palette.tableBorder)];
}

/** A row's raw text while it arrives: dimmed, only its end if it is longer than the row. */
export function previewCells(line: string, columns: number): Cell[] {
  const room = Math.max(1, columns - 1);
  const cells = cellsOf(line, palette.preview);
  let width = widthOf(cells);
  if (width <= room) return cells;
  let start = 0;
  while (width > room - 1 && start < cells.length) width -= (cells[start++] as Cell).width;
  return [...cellsOf('…', palette.preview), ...cells.slice(start)];
}
