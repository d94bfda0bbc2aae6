/**
 * The marks a block leaves on the screen by itself, apart from its text: a thematic break drawn
 * across the width, a fenced code block's language shown once as a label (its fences are not
 * drawn), and the width every row is drawn to.
 */
import { cellsOf, widthOf, type Cell } from './cells.js';
import { leadCells, quoteBars } from './prose-flow.js';
import { palette } from './style.js';

/** The terminal's width as rows are drawn to it: at least 10 columns, 80 when it says nothing usable. */
export function usableColumns(columns: number): number {
  return Number.isFinite(columns) && columns >= 10 ? Math.floor(columns) : columns > 0 ? 10 : 80;
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
