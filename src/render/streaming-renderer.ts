/**
 * Markdown → terminal, as the text arrives.
 *
 * Model text is neutralised first (src/terminal-text.ts): every control character is made
 * visible before any styling is added, so nothing the model sends can become an escape
 * sequence, whether in prose, a code block's language, a link's URL or a table cell. Then each
 * source line is handled as it comes:
 * - prose (paragraphs, headings, list items, quotes) by a {@link LineFlow}: styled as typed,
 *   wrapped at word boundaries by svc, finished rows committed;
 * - fenced code: fences hidden, the language shown once, each line written as it arrives and,
 *   once complete, drawn again highlighted if it fits on one row (a longer line runs past the
 *   edge as the terminal wraps it, exactly as it was sent, and keeps its plain colour);
 * - tables: see table.ts.
 * Only the row under the cursor is ever redrawn (row-painter.ts).
 */
import { type LineStart, classifyLine, closesFence, indentOf, quotePrefix } from './block-start.js';
import { type Cell, cellsOf, widthOf } from './cells.js';
import type { Highlighter } from './highlight.js';
import { LineFlow } from './line-flow.js';
import { RowPainter } from './row-painter.js';
import { palette, PLAIN, type Style } from './style.js';
import { layoutTable, mayBeDelimiter, parseDelimiter, previewCells, splitRow, type TableLayout, tableRowCells, tableRuleCells } from './table.js';
import { codePointWidth } from './width.js';
import { neutraliseForTerminal } from '../core/terminal-text.js';

export interface RendererOptions {
  /** The terminal's width now; read again at the start of every line (so after SIGWINCH too). */
  columns: () => number;
  /** Colours (NO_COLOR / FORCE_COLOR: see `colorWanted` in src/io.ts); bold, italic and underline stay without. */
  color: boolean;
  /** OSC 8 hyperlinks (see hyperlinks.ts `hyperlinksWanted`). */
  hyperlinks: boolean;
  /** Where the bytes go: called at most once per `push`. */
  write: (bytes: string) => void;
  /** Code highlighting (highlight.ts); without it code is shown plain. */
  highlighter?: Highlighter | undefined;
}

export interface StreamingRenderer {
  /** A piece of the Markdown text, cut anywhere. */
  push(text: string): void;
  /** The text is complete (or interrupted): finish the last line and leave the terminal's style as it was. */
  end(): void;
}

interface Fence {
  char: string;
  length: number;
  quote: number;
  language: string;
  /** The last lines of the block, for highlighting constructs that span lines. */
  context: string[];
}

type Mode =
  | { kind: 'start' }
  | { kind: 'flow'; flow: LineFlow }
  | { kind: 'code'; prefix: Cell[]; text: string; width: number; long: boolean }
  | { kind: 'row'; header: boolean };

/** Lines of code kept before the current one when highlighting it: enough for most comments and strings. */
const CONTEXT_LINES = 40;
const TAB_STOP = 8;

export function createStreamingRenderer(options: RendererOptions): StreamingRenderer {
  return new Renderer(options);
}

class Renderer implements StreamingRenderer {
  readonly #o: RendererOptions;
  readonly #painter: RowPainter;
  /** A CR or high surrogate at the end of a piece waits for the next one (CRLF, surrogate pairs). */
  #carry = '';
  #line = '';
  #mode: Mode = { kind: 'start' };
  #width: number;
  /** No piece of the current line has arrived yet: its width is read with its first piece. */
  #fresh = true;
  #fence: Fence | undefined;
  #table: TableLayout | undefined;
  /** A line that looks like a table header, shown as a preview until the next line tells. */
  #header: string | undefined;

  constructor(options: RendererOptions) {
    this.#o = options;
    this.#painter = new RowPainter(options.color, options.hyperlinks);
    this.#width = this.#readColumns();
  }

  push(text: string): void {
    let piece = this.#carry + text;
    this.#carry = '';
    const last = piece.charCodeAt(piece.length - 1);
    if (last === 0x0d || (last >= 0xd800 && last <= 0xdbff)) {
      this.#carry = piece.slice(-1);
      piece = piece.slice(0, -1);
    }
    this.#feedText(neutraliseForTerminal(piece));
    this.#show();
    this.#flush();
  }

  end(): void {
    if (this.#carry !== '') {
      this.#feedText(neutraliseForTerminal(this.#carry));
      this.#carry = '';
    }
    if (this.#mode.kind !== 'start' || this.#line !== '') this.#feed('', true);
    if (this.#header !== undefined) this.#flushHeader();
    this.#painter.settle();
    this.#flush();
  }

  #flush(): void {
    const bytes = this.#painter.take();
    if (bytes !== '') this.#o.write(bytes);
  }

  #readColumns(): number {
    const columns = this.#o.columns();
    return Number.isFinite(columns) && columns >= 10 ? Math.floor(columns) : columns > 0 ? 10 : 80;
  }

  #feedText(text: string): void {
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      this.#feed(text.slice(start, end), true);
      start = end + 1;
    }
    if (start < text.length) this.#feed(text.slice(start), false);
  }

  /** Part of the current line; `complete` when the line ends with it. */
  #feed(piece: string, complete: boolean): void {
    const mode = this.#mode;
    switch (mode.kind) {
      case 'flow':
        mode.flow.push(piece);
        if (complete) {
          this.#painter.commit(mode.flow.end());
          this.#nextLine();
        }
        return;
      case 'code':
        this.#appendCode(mode, piece);
        if (complete) this.#finishCode(mode);
        return;
      case 'row':
        this.#line += piece;
        if (complete) this.#finishRow(mode.header);
        return;
      case 'start':
        if (this.#fresh) {
          this.#width = this.#readColumns();
          this.#fresh = false;
        }
        this.#line += piece;
        this.#decide(complete);
    }
  }

  #nextLine(): void {
    this.#mode = { kind: 'start' };
    this.#line = '';
    this.#fresh = true;
  }

  /** Decide what the current line is, if its first characters allow it yet. */
  #decide(complete: boolean): void {
    const line = this.#line;
    if (this.#fence) {
      this.#decideInFence(this.#fence, complete);
      return;
    }
    if (this.#header !== undefined) {
      if (!complete && mayBeDelimiter(line)) return;
      const header = splitRow(this.#header);
      const aligns = complete ? parseDelimiter(line) : undefined;
      if (aligns !== undefined && aligns.length === header.length) {
        this.#startTable(header, aligns);
        return;
      }
      this.#flushHeader();
    }
    if (this.#table) {
      const { end } = indentOf(line, 0);
      if (end >= line.length && !complete) return;
      if (line[end] === '|') {
        this.#mode = { kind: 'row', header: false };
        if (complete) this.#finishRow(false);
        return;
      }
      this.#table = undefined;
    }
    const start = classifyLine(line, complete);
    switch (start.kind) {
      case 'wait':
        return;
      case 'blank':
        this.#painter.commit(quoteBars(start.quote));
        this.#nextLine();
        return;
      case 'rule': {
        const prefix = [...quoteBars(start.quote), ...cellsOf(' '.repeat(start.indent), PLAIN)];
        const room = Math.max(1, this.#width - widthOf(prefix));
        this.#painter.commit([...prefix, ...cellsOf('─'.repeat(room), palette.rule)]);
        this.#nextLine();
        return;
      }
      case 'fence': {
        const language = start.info.split(/\s/)[0] ?? '';
        this.#fence = { char: start.char, length: start.length, quote: start.quote, language, context: [] };
        // The fences themselves are hidden; the language, if given, is shown once as a label.
        if (language !== '') this.#painter.commit([...quoteBars(start.quote), ...cellsOf(language.slice(0, Math.max(1, this.#width - 2 * start.quote)), palette.codeLabel)]);
        this.#nextLine();
        return;
      }
      case 'table':
        this.#mode = { kind: 'row', header: true };
        if (complete) this.#finishRow(true);
        return;
      default:
        this.#startFlow(start, line, complete);
    }
  }

  #startFlow(start: Exclude<LineStart, { kind: 'wait' | 'blank' | 'rule' | 'fence' | 'table' }>, line: string, complete: boolean): void {
    const lead = [...quoteBars(start.quote), ...cellsOf(' '.repeat(start.indent), PLAIN)];
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
    const flow = new LineFlow({
      width: this.#width,
      firstPrefix: first,
      restPrefix: rest,
      base,
      heading: start.kind === 'heading',
      color: this.#o.color,
      hyperlinks: this.#o.hyperlinks,
      onRow: (cells) => this.#painter.commit(cells),
    });
    this.#mode = { kind: 'flow', flow };
    this.#line = '';
    flow.push(line.slice(start.content));
    if (complete) {
      this.#painter.commit(flow.end());
      this.#nextLine();
    }
  }

  // ---- fenced code --------------------------------------------------------------------------

  #decideInFence(fence: Fence, complete: boolean): void {
    const line = this.#line;
    const quote = quotePrefix(line, fence.quote);
    const rest = line.slice(quote.end);
    const closing = closesFence(rest, fence.char, fence.length);
    if (closing !== 'no' && !complete) return;
    if (closing === 'yes') {
      this.#fence = undefined;
      this.#nextLine();
      return;
    }
    const mode: Mode = { kind: 'code', prefix: quoteBars(quote.depth), text: '', width: 0, long: false };
    this.#mode = mode;
    this.#painter.show(mode.prefix);
    this.#appendCode(mode, rest);
    if (complete) this.#finishCode(mode);
  }

  #appendCode(mode: Extract<Mode, { kind: 'code' }>, text: string): void {
    if (text === '') return;
    let shown = text;
    if (text.includes('\t') || !mode.long) {
      // Tabs become spaces to the terminal's tab stops, so the row's width is known exactly.
      shown = '';
      for (const char of text) {
        const width = char === '\t' ? TAB_STOP - (mode.width % TAB_STOP) : codePointWidth(char);
        shown += char === '\t' ? ' '.repeat(width) : char;
        mode.width += width;
      }
    }
    if (!mode.long) {
      mode.text += shown;
      if (widthOf(mode.prefix) + mode.width > this.#width) {
        mode.long = true;
        mode.text = '';
      }
    }
    this.#painter.append(shown);
  }

  #finishCode(mode: Extract<Mode, { kind: 'code' }>): void {
    const fence = this.#fence as Fence;
    if (mode.long) {
      // Wider than the terminal: it wrapped on screen, so it cannot be redrawn; it stays as sent.
      this.#painter.finish();
    } else {
      this.#painter.commit([...mode.prefix, ...this.#highlighted(fence, mode.text)]);
    }
    fence.context.push(mode.text);
    if (fence.context.length > CONTEXT_LINES) fence.context.shift();
    this.#nextLine();
  }

  #highlighted(fence: Fence, text: string): Cell[] {
    const highlighter = this.#o.highlighter;
    if (highlighter && this.#o.color && fence.language !== '' && text !== '') {
      const lines = highlighter([...fence.context, text].join('\n'), fence.language);
      const last = lines?.at(-1);
      if (last && last.map((segment) => segment.text).join('') === text) {
        return last.flatMap((segment) => cellsOf(segment.text, segment.style));
      }
    }
    return cellsOf(text, PLAIN);
  }

  // ---- tables -------------------------------------------------------------------------------

  #finishRow(header: boolean): void {
    const line = this.#line;
    if (header) {
      // Maybe a table header: it stays a preview until the next line shows a delimiter row.
      this.#header = line;
      this.#nextLine();
      return;
    }
    const table = this.#table as TableLayout;
    for (const row of tableRowCells(splitRow(line), table, false, this.#o)) this.#painter.commit(row);
    this.#nextLine();
  }

  #startTable(header: string[], aligns: ReturnType<typeof parseDelimiter> & object): void {
    const indent = indentOf(this.#header ?? '', 0).columns;
    const table = layoutTable(header, aligns, this.#width, indent);
    this.#header = undefined;
    this.#table = table;
    for (const row of tableRowCells(header, table, true, this.#o)) this.#painter.commit(row);
    this.#painter.commit(tableRuleCells(table));
    this.#nextLine();
  }

  /** The held line was not a table header after all: it is a line of text. */
  #flushHeader(): void {
    const header = this.#header as string;
    this.#header = undefined;
    const { columns, end } = indentOf(header, 0);
    const flow = new LineFlow({
      width: this.#width,
      firstPrefix: cellsOf(' '.repeat(columns), PLAIN),
      restPrefix: cellsOf(' '.repeat(columns), PLAIN),
      base: PLAIN,
      heading: false,
      color: this.#o.color,
      hyperlinks: this.#o.hyperlinks,
      onRow: (cells) => this.#painter.commit(cells),
    });
    flow.push(header.slice(end));
    this.#painter.commit(flow.end());
  }

  /** Draw the row being written as it stands now. */
  #show(): void {
    const mode = this.#mode;
    if (mode.kind === 'flow') this.#painter.show(mode.flow.current());
    else if (mode.kind === 'row') this.#painter.show(previewCells(this.#line, this.#width));
  }
}

function quoteBars(depth: number): Cell[] {
  return depth > 0 ? cellsOf('│ '.repeat(depth), palette.quoteBar) : [];
}
