/**
 * What a line is, from its first characters: quote markers, then a heading, list item, rule,
 * fence, table row or plain text. Decided as soon as the characters seen so far allow it and
 * never changed afterwards; until then ('wait') nothing of the line is shown, which holds back
 * only marker characters (`-`, `1.`, `#`, backticks), never words.
 */

export type LineStart =
  | { kind: 'wait' }
  | { kind: 'blank'; quote: number }
  | { kind: 'rule'; quote: number; indent: number }
  | { kind: 'fence'; quote: number; char: string; length: number; info: string }
  | { kind: 'table'; indent: number }
  | { kind: 'heading'; quote: number; indent: number; level: number; content: number }
  | { kind: 'bullet'; quote: number; indent: number; content: number }
  | { kind: 'ordered'; quote: number; indent: number; marker: string; content: number }
  | { kind: 'text'; quote: number; indent: number; content: number };

/** Quote markers (`>`, `> >`) at the start of `text`: how many, and where the rest begins. */
export function quotePrefix(text: string, limit = Number.POSITIVE_INFINITY): { depth: number; end: number; open: boolean } {
  let depth = 0;
  let end = 0;
  for (;;) {
    let j = end;
    while (j < text.length && j - end < 4 && text[j] === ' ') j++;
    if (depth >= limit || text[j] !== '>') {
      // `open`: the text so far could still be more markers (only spaces after the last one).
      return { depth, end, open: j >= text.length };
    }
    depth++;
    end = j + 1;
    if (text[end] === ' ') end++;
  }
}

/** Leading spaces and tabs as columns (a tab to the next multiple of 4, as CommonMark counts). */
export function indentOf(text: string, from: number): { columns: number; end: number } {
  let columns = 0;
  let end = from;
  for (; end < text.length; end++) {
    if (text[end] === ' ') columns++;
    else if (text[end] === '\t') columns += 4 - (columns % 4);
    else break;
  }
  return { columns, end };
}

const RULE_SO_FAR = /^([-*_])(?:[ \t]*\1)*[ \t]*$/;
const RULE = /^([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const skipSpaces = (text: string, from: number): number => {
  let j = from;
  while (text[j] === ' ' || text[j] === '\t') j++;
  return j;
};

/** Classify the line so far; `complete` when its end has been seen. */
export function classifyLine(text: string, complete: boolean): LineStart {
  const quote = quotePrefix(text);
  if (quote.open && !complete) return { kind: 'wait' };
  const { columns: indent, end: k } = indentOf(text, quote.end);
  if (k >= text.length) return complete ? { kind: 'blank', quote: quote.depth } : { kind: 'wait' };
  const rest = text.slice(k);
  const char = rest[0] as string;

  if (char === '`' || char === '~') {
    let run = 0;
    while (rest[run] === char) run++;
    if (run >= 3 || run === rest.length) {
      if (!complete) return { kind: 'wait' };
      const info = rest.slice(run).trim();
      if (run >= 3 && !(char === '`' && info.includes('`'))) return { kind: 'fence', quote: quote.depth, char, length: run, info };
    }
  }
  if (char === '#') {
    let run = 0;
    while (rest[run] === '#') run++;
    if (run === rest.length && !complete) return { kind: 'wait' };
    if (run <= 6 && (run === rest.length || rest[run] === ' ' || rest[run] === '\t')) {
      return { kind: 'heading', quote: quote.depth, indent, level: run, content: skipSpaces(text, k + run) };
    }
  }
  if ((char === '-' || char === '*' || char === '_') && RULE_SO_FAR.test(rest)) {
    if (!complete) return { kind: 'wait' };
    if (RULE.test(rest)) return { kind: 'rule', quote: quote.depth, indent };
  }
  if (char === '-' || char === '*' || char === '+') {
    if (rest.length === 1 && !complete) return { kind: 'wait' };
    if (rest.length === 1 || rest[1] === ' ' || rest[1] === '\t') {
      return { kind: 'bullet', quote: quote.depth, indent, content: skipSpaces(text, k + 1) };
    }
  }
  if (char >= '0' && char <= '9') {
    let run = 0;
    while (run < rest.length && rest[run]! >= '0' && rest[run]! <= '9') run++;
    if (run >= rest.length && !complete) return { kind: 'wait' };
    const delimiter = rest[run];
    if (run <= 9 && (delimiter === '.' || delimiter === ')')) {
      if (run + 1 >= rest.length && !complete) return { kind: 'wait' };
      if (run + 1 >= rest.length || rest[run + 1] === ' ' || rest[run + 1] === '\t') {
        return { kind: 'ordered', quote: quote.depth, indent, marker: rest.slice(0, run + 1), content: skipSpaces(text, k + run + 1) };
      }
    }
  }
  if (char === '|' && quote.depth === 0) return { kind: 'table', indent };
  return { kind: 'text', quote: quote.depth, indent, content: k };
}

/** A closing fence for an open one: the same character, at least as many, nothing after. */
export function closesFence(rest: string, char: string, length: number): 'yes' | 'no' | 'maybe' {
  const j = skipSpaces(rest, 0);
  let run = 0;
  while (rest[j + run] === char) run++;
  const after = skipSpaces(rest, j + run);
  if (after < rest.length) return 'no';
  // Only spaces and fence characters so far: it may still become the closing fence.
  return run >= length ? 'yes' : 'maybe';
}
