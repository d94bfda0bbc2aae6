/**
 * A terminal row as cells (text, width, style, link) and its conversion to the bytes that draw
 * it. Rows are built as cells so that wrapping can measure and move them before anything is
 * written.
 */
import { CLOSE_LINK, openLink } from './hyperlinks.js';
import { effective, PLAIN, RESET, sgr, type Style } from './style.js';
import { codePointWidth } from '../terminal/width.js';

export interface Cell {
  /** One code point (or a few, for an escape that stands for one). */
  text: string;
  width: number;
  style: Style;
  /** Hyperlink target (already checked safe), when the cell is part of a link. */
  link?: string | undefined;
}

export function cell(text: string, style: Style, link?: string): Cell {
  return { text, width: text === ' ' ? 1 : codePointWidth(text), style, link };
}

/** Cells for a string of text in one style. */
export function cellsOf(text: string, style: Style): Cell[] {
  const cells: Cell[] = [];
  for (const char of text) cells.push(cell(char, style));
  return cells;
}

export function widthOf(cells: readonly Cell[]): number {
  let width = 0;
  for (const c of cells) width += c.width;
  return width;
}

/** The bytes of a row, and what they leave active: a style, a link (closed when the row ends). */
export interface Drawn {
  bytes: string;
  style: Style;
  link: string | undefined;
}

export const NOTHING_DRAWN: Drawn = { bytes: '', style: PLAIN, link: undefined };

/**
 * The bytes that draw `cells` from index `from` on, continuing from `after` (by default the
 * default state). No reset at the end: text appended to the same row later continues in the
 * same state (the caller closes it when the row is committed).
 */
export function draw(cells: readonly Cell[], color: boolean, hyperlinks: boolean, from = 0, after: Drawn = NOTHING_DRAWN): Drawn {
  let bytes = '';
  let style = after.style;
  let link = after.link;
  for (let i = from; i < cells.length; i++) {
    const c = cells[i] as Cell;
    const target = hyperlinks ? c.link : undefined;
    if (target !== link) {
      bytes += target === undefined ? CLOSE_LINK : openLink(target);
      link = target;
    }
    const wanted = effective(c.style, color);
    if (wanted !== style) {
      bytes += sgr(wanted, color);
      style = wanted;
    }
    bytes += c.text;
  }
  return { bytes: after.bytes + bytes, style, link };
}

/** The bytes that return the terminal to the default state after `drawn`. */
export function closing(drawn: Drawn): string {
  return `${drawn.link === undefined ? '' : CLOSE_LINK}${drawn.style === PLAIN ? '' : RESET}`;
}
