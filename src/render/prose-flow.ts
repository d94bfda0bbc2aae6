/**
 * The LineFlow for one line of prose (a paragraph line, a heading, a list item, a quote), with the
 * cells before its text: quote bars, indentation, the bullet or number on its first row and a
 * hanging indent on the rest. And the lines a block draws by itself inside the same quote bars: a
 * thematic break across the width, and a fenced code block's language shown once as a label (its
 * fences are not drawn).
 */
import { type LineStart } from './block-start.js';
import { type Cell, cellsOf, widthOf } from './cells.js';
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

/** A thematic break (`---`, `***`): a line across what the quote bars and indent leave. */
export function ruleCells(quote: number, indent: number, width: number): Cell[] {
  const prefix = leadCells(quote, indent);
  const room = Math.max(1, width - widthOf(prefix));
  return [...prefix, ...cellsOf('─'.repeat(room), palette.rule)];
}

/** A code block's language, inside its quote bars, cut to the width. */
export function codeLabelCells(quote: number, language: string, width: number): Cell[] {
  return [...quoteBars(quote), ...cellsOf(language.slice(0, Math.max(1, width - 2 * quote)), palette.codeLabel)];
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
