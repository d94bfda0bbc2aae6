/**
 * Display width of text in terminal columns, one code point at a time: the renderer wraps words
 * itself, and tables and notes line up their columns, so each must know how many columns a
 * character takes (CJK and most emoji take two, combining marks none).
 */
import { eastAsianWidth } from 'get-east-asian-width';

// Combining marks draw nothing of their own; nor do zero-width spaces and joiners (U+200B..U+200F,
// U+2060) and variation selectors (U+FE00..U+FE0F, U+E0100..U+E01EF).
const COMBINING = /^\p{M}$/u;
const isZeroWidth = (code: number): boolean =>
  (code >= 0x200b && code <= 0x200f) || code === 0x2060 || (code >= 0xfe00 && code <= 0xfe0f) || (code >= 0xe0100 && code <= 0xe01ef);

/** Columns taken by one code point (already neutralised: no control characters reach here). */
export function codePointWidth(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  if (code >= 0x20 && code < 0x7f) return 1;
  if (isZeroWidth(code) || COMBINING.test(char)) return 0;
  return eastAsianWidth(code);
}

/**
 * Columns taken by a string. Printable ASCII is counted where it stands, without making a string
 * of each character: a listing measures thousands of titles, most ASCII with a `…` at the end.
 */
export function textWidth(text: string): number {
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x20 && code < 0x7f) {
      width += 1;
      continue;
    }
    const point = text.codePointAt(i)!;
    if (point > 0xffff) i += 1;
    width += codePointWidth(String.fromCodePoint(point));
  }
  return width;
}

/**
 * `text` cut to at most `columns` terminal columns, `…` marking the cut; text with only
 * one-column characters (the common case) is measured by its length alone.
 */
export function cutToColumns(text: string, columns: number): string {
  if (!/[^\x20-\x7e]/.test(text)) return text.length > columns ? `${text.slice(0, columns - 1)}…` : text;
  if (textWidth(text) <= columns) return text;
  let used = 0;
  let end = 0;
  for (const char of text) {
    const width = codePointWidth(char);
    if (used + width > columns - 1) break;
    used += width;
    end += char.length;
  }
  return `${text.slice(0, end)}…`;
}
