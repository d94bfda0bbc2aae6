/**
 * A fenced code block as it streams: the fences hidden, each line written as it arrives and,
 * once complete, drawn again highlighted if it fits on one row. A line wider than the terminal
 * runs past the edge as the terminal wraps it, exactly as sent, and keeps its plain colour: a
 * wrapped row cannot be redrawn. The last lines are kept as context for the highlighter
 * (comments and strings that span lines).
 */
import { closesFence, quotePrefix } from './block-start.js';
import { type Cell, cellsOf, widthOf } from './cells.js';
import { quoteBars } from './prose-flow.js';
import type { Highlighter } from './highlight.js';
import type { RowPainter } from './row-painter.js';
import { PLAIN } from './style.js';
import { codePointWidth } from '../terminal/width.js';

/** Lines of code kept before the current one when highlighting it: enough for most comments and strings. */
const CONTEXT_LINES = 40;
const TAB_STOP = 8;

/** The opening fence: what closes the block, and how the code is labelled and highlighted. */
export interface Fence {
  char: string;
  length: number;
  quote: number;
  language: string;
}

/** One line of code being written. */
export interface CodeLine {
  prefix: Cell[];
  text: string;
  width: number;
  long: boolean;
}

export class CodeBlock {
  readonly fence: Fence;
  readonly #context: string[] = [];
  readonly #painter: RowPainter;
  readonly #highlighter: Highlighter | undefined;

  constructor(fence: Fence, painter: RowPainter, highlighter: Highlighter | undefined) {
    this.fence = fence;
    this.#painter = painter;
    this.#highlighter = highlighter;
  }

  /**
   * A new line inside the block: more of it is needed to tell (`wait`), it is the closing fence
   * (`closed`), or it is a line of code, begun with what has come of it.
   */
  follow(line: string, complete: boolean, columns: number): 'wait' | 'closed' | CodeLine {
    const { fence } = this;
    const quote = quotePrefix(line, fence.quote);
    const rest = line.slice(quote.end);
    const closing = closesFence(rest, fence.char, fence.length);
    if (closing !== 'no' && !complete) return 'wait';
    if (closing === 'yes') return 'closed';
    const codeLine = this.startLine(quoteBars(quote.depth));
    this.append(codeLine, rest, columns);
    return codeLine;
  }

  /** Start a line of code after `prefix` (the quote bars). */
  startLine(prefix: Cell[]): CodeLine {
    const line = { prefix, text: '', width: 0, long: false };
    this.#painter.show(prefix);
    return line;
  }

  append(line: CodeLine, text: string, columns: number): void {
    if (text === '') return;
    let shown = text;
    if (text.includes('\t') || !line.long) {
      // Tabs become spaces to the terminal's tab stops, so the row's width is known exactly.
      shown = '';
      for (const char of text) {
        const width = char === '\t' ? TAB_STOP - (line.width % TAB_STOP) : codePointWidth(char);
        shown += char === '\t' ? ' '.repeat(width) : char;
        line.width += width;
      }
    }
    if (!line.long) line.text += shown;
    this.fit(line, columns);
    this.#painter.append(shown);
  }

  /**
   * A line wider than `columns` (as it now stands, or once the terminal shrank) runs past the
   * edge: it is left as the terminal wraps it, never redrawn.
   */
  fit(line: CodeLine, columns: number): void {
    if (!line.long && widthOf(line.prefix) + line.width > columns) {
      line.long = true;
      line.text = '';
    }
  }

  finish(line: CodeLine, color: boolean): void {
    if (line.long) this.#painter.finish();
    else this.#painter.commit([...line.prefix, ...this.#highlighted(line.text, color)]);
    this.#context.push(line.text);
    if (this.#context.length > CONTEXT_LINES) this.#context.shift();
  }

  #highlighted(text: string, color: boolean): Cell[] {
    const highlighter = this.#highlighter;
    if (highlighter && color && this.fence.language !== '' && text !== '') {
      const lines = highlighter([...this.#context, text].join('\n'), this.fence.language);
      const last = lines?.at(-1);
      if (last && last.map((segment) => segment.text).join('') === text) {
        return last.flatMap((segment) => cellsOf(segment.text, segment.style));
      }
    }
    return cellsOf(text, PLAIN);
  }
}
