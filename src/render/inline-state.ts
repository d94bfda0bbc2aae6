/**
 * What the inline reader of a line (line-flow.ts) knows at a position: the spans open there
 * (emphasis, code, links), the character before, and whether it is inside a link's URL. Apart
 * from the reader so the row wrapper can hold on to it (where a row or a word starts) without
 * knowing what it is.
 */
import { palette, type Style } from './style.js';

export type SpanKind = 'strong' | 'em' | 'strike' | 'code' | 'link';

export interface Span {
  readonly kind: SpanKind;
  /** The marker character and how many of it open (and so close) the span. */
  readonly char: string;
  readonly length: number;
  /** Position of the opener in the line: the key of every later decision about it. */
  readonly at: number;
}

export interface UrlPart {
  /** Position of the `[` of the link this URL belongs to. */
  readonly at: number;
  readonly depth: number;
  readonly text: string;
}

/**
 * Everything the interpretation of the rest of the line depends on. The live state advances in
 * place (one allocation per character would be most of the renderer's time); the states kept
 * for later (row and word starts) are copies. `spans` arrays are never mutated, only replaced.
 */
export interface State {
  pos: number;
  spans: readonly Span[];
  /** The source character before `pos`; '' at the start of the line. */
  prev: string;
  url: UrlPart | undefined;
  /** `[`...`]` pairs open inside a link's text. */
  brackets: number;
}

export const isSpace = (char: string): boolean => char === '' || char === ' ' || char === '\t' || /^\s$/u.test(char);
export const isPunctuation = (char: string): boolean => char !== '' && /^[\p{P}\p{S}]$/u.test(char);
export const ASCII_PUNCTUATION = /^[!-/:-@[-`{-~]$/;

export const spanStyle: Record<Exclude<SpanKind, 'link'>, Style> = {
  strong: palette.strong,
  em: palette.emphasis,
  strike: palette.strike,
  code: palette.inlineCode,
};

