/**
 * The LineFlow for one line of prose (a paragraph line, a heading, a list item, a quote), with the
 * cells before its text: quote bars, indentation, the bullet or number on its first row and a
 * hanging indent on the rest.
 */
import { type LineStart } from './block-start.js';
import { type Cell, cellsOf } from './cells.js';
import { LineFlow } from './line-flow.js';
import { palette, PLAIN, type Style } from './style.js';

export type ProseStart = Exclude<LineStart, { kind: 'wait' | 'blank' | 'rule' | 'fence' | 'table' }>;

export interface ProseOptions {
  /** A function: read again at each row (a resize while the paragraph streams). */
  width: number | (() => number);
  color: boolean;
  hyperlinks: boolean;
  onRow(cells: Cell[]): void;
}

/** Quote bars for `depth` levels of `>`. */
export function quoteBars(depth: number): Cell[] {
  return depth > 0 ? cellsOf('│ '.repeat(depth), palette.quoteBar) : [];
}

/** What a line starts with inside `quote` levels of `>` and `indent` spaces in: the bars, then the indent. */
export function leadCells(quote: number, indent: number): Cell[] {
  return [...quoteBars(quote), ...cellsOf(' '.repeat(indent), PLAIN)];
}

/** The flow of a line that starts as `start` says. */
export function proseFlow(start: ProseStart, options: ProseOptions): LineFlow {
  const lead = leadCells(start.quote, start.indent);
  let first = lead;
  let rest = lead;
  let base: Style = PLAIN;
  if (start.kind === 'heading') {
    base = palette.heading[Math.min(start.level, 6) - 1] ?? PLAIN;
  } else if (start.kind === 'bullet') {
    first = [...lead, ...cellsOf(start.indent > 0 ? '◦' : '•', palette.bullet), ...cellsOf(' ', PLAIN)];
    rest = [...lead, ...cellsOf('  ', PLAIN)];
  } else if (start.kind === 'ordered') {
    first = [...lead, ...cellsOf(start.marker, palette.bullet), ...cellsOf(' ', PLAIN)];
    rest = [...lead, ...cellsOf(' '.repeat(start.marker.length + 1), PLAIN)];
  }
  return plainFlow(first, rest, base, start.kind === 'heading', options);
}

/** A flow with the given prefixes: for a line that turned out to be plain text after all. */
export function plainFlow(first: Cell[], rest: Cell[], base: Style, heading: boolean, options: ProseOptions): LineFlow {
  return new LineFlow({ width: options.width, firstPrefix: first, restPrefix: rest, base, heading, color: options.color, hyperlinks: options.hyperlinks, onRow: options.onRow });
}
