/**
 * Styles as small integers (attribute bits plus one foreground colour) and the palette.
 *
 * The palette uses only the terminal's own ANSI colours, which every theme tunes for its own
 * background, and of those only the ones that stay readable on both light and dark themes:
 * magenta, cyan, green and red. Yellow and white vanish on light backgrounds, blue and bright
 * black on many dark ones, so none of those is used; comments are dim instead of grey. Structure
 * is carried by bold, italic and underline, which survive NO_COLOR.
 */

export const BOLD = 1;
export const DIM = 2;
export const ITALIC = 4;
export const UNDERLINE = 8;
export const STRIKE = 16;

const RED = 31 << 8;
const GREEN = 32 << 8;
const MAGENTA = 35 << 8;
const CYAN = 36 << 8;

/** A style: attribute bits in the low byte, an SGR foreground code (30-37) above, 0 for none. */
export type Style = number;

export const PLAIN: Style = 0;

/** What each part of a rendered reply looks like. */
export const palette = {
  heading: [BOLD | UNDERLINE | MAGENTA, BOLD | MAGENTA, BOLD | CYAN, BOLD, BOLD, BOLD] as const,
  strong: BOLD,
  emphasis: ITALIC,
  strike: STRIKE,
  inlineCode: CYAN,
  linkText: UNDERLINE,
  linkUrl: DIM,
  bullet: CYAN,
  quoteBar: DIM,
  rule: DIM,
  codeLabel: DIM | ITALIC,
  tableBorder: DIM,
  tableHeader: BOLD,
  preview: DIM,
  code: {
    keyword: MAGENTA,
    string: GREEN,
    number: CYAN,
    literal: CYAN,
    comment: DIM | ITALIC,
    title: BOLD,
    type: CYAN,
    builtIn: CYAN,
    meta: DIM,
    deletion: RED,
    addition: GREEN,
    attr: CYAN,
    variable: PLAIN,
  },
} as const;

const ESC = '\u001b';
export const RESET = `${ESC}[0m`;

/** The SGR sequence that sets exactly `style` (from any state: it starts with a reset). */
export function sgr(style: Style, color: boolean): string {
  let codes = '0';
  if (style & BOLD) codes += ';1';
  if (style & DIM) codes += ';2';
  if (style & ITALIC) codes += ';3';
  if (style & UNDERLINE) codes += ';4';
  if (style & STRIKE) codes += ';9';
  const fg = style >> 8;
  if (color && fg) codes += `;${fg}`;
  return `${ESC}[${codes}m`;
}

/** The style as the terminal will show it: without its colour when colour is off. */
export function effective(style: Style, color: boolean): Style {
  return color ? style : style & 0xff;
}
