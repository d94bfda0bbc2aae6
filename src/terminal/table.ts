/**
 * A listing on a terminal: aligned columns under a header (`svc models`, `svc sessions list`,
 * `svc roles list`, ...). In a pipe the same commands print tab-separated lines with no header
 * instead: a script splits on tabs, a person reads columns.
 */
import { jsonForOutput } from '../core/json.js';
import { neutraliseForTerminal } from '../core/terminal-text.js';
import { cutToColumns, textWidth } from './width.js';

export interface Column {
  /** The header, in capitals by convention (MODEL, OWNED BY). */
  title: string;
  /** Counts read best right-aligned. */
  align?: 'left' | 'right';
}

export interface TableOptions {
  /**
   * The terminal's width: the last column's cells are cut (with `…`) so that no row wraps, as long
   * as that leaves them a useful room; a row that cannot fit even so wraps as it would.
   */
  width?: number | undefined;
}

const GAP = '  ';
/** Below this many columns a cut last cell says too little: the row wraps instead. */
const LEAST_ROOM = 12;

/**
 * A cell as a terminal may show it: controls neutralised (the text may be a hand-edited file's or
 * a service's), and a line break or tab, which would break the row, as its visible stand-in.
 */
function cellText(text: string): string {
  return neutraliseForTerminal(text).replace(/\n/g, '\u2424').replace(/\t/g, '\u2409');
}

function padded(text: string, width: number, align: Column['align']): string {
  const room = ' '.repeat(Math.max(0, width - textWidth(text)));
  return align === 'right' ? `${room}${text}` : `${text}${room}`;
}

/**
 * The header line and one line per row, columns two spaces apart and as wide as their widest
 * cell in terminal columns (wide characters count two: width.ts), without trailing spaces.
 * Every cell is neutralised here, so callers pass the text as it is.
 */
export function tableLines(columns: readonly Column[], rows: readonly (readonly string[])[], options: TableOptions = {}): string[] {
  const cells = [columns.map((column) => column.title), ...rows.map((row) => columns.map((_, index) => cellText(row[index] ?? '')))];
  const widths = columns.map((_, index) => Math.max(...cells.map((line) => textWidth(line[index]!))));
  const last = columns.length - 1;
  if (options.width !== undefined && options.width > 0) {
    const before = widths.slice(0, last).reduce((sum, width) => sum + width + GAP.length, 0);
    const room = options.width - before;
    if (room >= LEAST_ROOM && widths[last]! > room) {
      for (const line of cells.slice(1)) line[last] = cutToColumns(line[last]!, room);
      widths[last] = room;
    }
  }
  return cells.map((line) =>
    line
      .map((cell, index) => padded(cell, widths[index]!, columns[index]!.align))
      .join(GAP)
      .trimEnd(),
  );
}

/** {@link tableLines} as one text, each line ended; nothing at all when there are no rows. */
export function tableText(columns: readonly Column[], rows: readonly (readonly string[])[], options: TableOptions = {}): string {
  return rows.length === 0 ? '' : `${tableLines(columns, rows, options).join('\n')}\n`;
}

/** The width of the terminal `stream` is, when it says (a test's stream or a pipe does not). */
export function terminalWidth(stream: unknown): number | undefined {
  const columns = (stream as { columns?: unknown }).columns;
  return typeof columns === 'number' && columns > 0 ? columns : undefined;
}

/** A command's listing, the three ways it can be printed. */
export interface Listing {
  columns: readonly Column[];
  rows: readonly (readonly string[])[];
  /** What `--json` prints instead. */
  json: unknown;
}

/**
 * A listing for stdout: with `json`, its JSON; on a terminal, the table; in a pipe, one line per
 * row, its cells tab-separated (a tab or line break inside a cell becomes a space), no header.
 */
export function listingOutput(listing: Listing, json: boolean, out: { stdout: unknown; stdoutIsTTY: boolean }): string {
  if (json) return jsonForOutput(listing.json, out.stdoutIsTTY);
  if (out.stdoutIsTTY) return tableText(listing.columns, listing.rows, { width: terminalWidth(out.stdout) });
  return listing.rows.map((row) => `${row.map((cell) => cell.replace(/[\t\r\n]+/g, ' ')).join('\t')}\n`).join('');
}
