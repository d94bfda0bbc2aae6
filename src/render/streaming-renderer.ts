/**
 * Markdown → terminal, as the text arrives.
 *
 * Model text is neutralised first (core/terminal-text.ts): every control character is made
 * visible before any styling is added, so nothing the model sends can become an escape
 * sequence, whether in prose, a code block's language, a link's URL or a table cell. Then each
 * source line is handled as it comes:
 * - prose (paragraphs, headings, list items, quotes) by a {@link LineFlow}: styled as typed,
 *   wrapped at word boundaries by svc, finished rows committed;
 * - fenced code: fences hidden, the language shown once, each line as code-block.ts draws it;
 * - tables: see table.ts.
 * Only the row under the cursor is ever redrawn (row-painter.ts). The width is read at each row
 * and before each piece: when the terminal was resized, the row under the cursor is drawn again
 * at the new width (the rows before it stay as they were drawn).
 */
import { classifyLine } from './block-start.js';
import type { Highlighter } from './highlight.js';
import { CodeBlock, type CodeLine } from './code-block.js';
import type { LineFlow } from './line-flow.js';
import { codeLabelCells, plainFlow, proseFlow, quoteBars, ruleCells, type ProseOptions, type ProseStart } from './prose-flow.js';
import { RowPainter } from './row-painter.js';
import { SetextHold } from './setext-hold.js';
import { PLAIN } from './style.js';
import { previewCells } from './table.js';
import { TableBlock } from './table-block.js';
import { neutraliseForTerminal } from '../core/terminal-text.js';

export interface RendererOptions {
  /** The terminal's width now; read again before each piece and at `refresh` (so after SIGWINCH too). */
  columns: () => number;
  /**
   * The terminal re-wraps the row under the cursor to its new width when resized (tmux, kitty,
   * iTerm2, VTE, Windows Terminal): the screen rows it then takes are all replaced. Otherwise
   * (the safe guess: nothing above it is touched) the row is taken to have kept its place.
   */
  reflows?: boolean | undefined;
  /** Colours (NO_COLOR / FORCE_COLOR: see `colorWanted` in terminal/io.ts); bold, italic and underline stay without. */
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
  /** The terminal may have been resized: the row being written is drawn again at its width now. */
  refresh(): void;
}

type Mode =
  | { kind: 'start' }
  /** `source`: for a paragraph line at the margin, its text, kept for a setext underline. */
  | { kind: 'flow'; flow: LineFlow; source?: string | undefined }
  | { kind: 'code'; line: CodeLine }
  | { kind: 'row'; header: boolean };

/** The terminal's width as rows are drawn to it: at least 10 columns, 80 when it says nothing usable. */
function usableColumns(columns: number): number {
  return Number.isFinite(columns) && columns >= 10 ? Math.floor(columns) : columns > 0 ? 10 : 80;
}

/**
 * Pieces of text cut anywhere, handed on so that no pair is split: a CR at the end of a piece may
 * be the first half of a CRLF, and a high surrogate the first half of a character outside the
 * Basic Multilingual Plane (an emoji), so either waits for the next piece.
 */
class PieceCarry {
  #carry = '';

  /** `text` after what was held, less a last character that may be the first of a pair. */
  take(text: string): string {
    const piece = this.#carry + text;
    const last = piece.charCodeAt(piece.length - 1);
    const holdLast = last === 0x0d || (last >= 0xd800 && last <= 0xdbff);
    this.#carry = holdLast ? piece.slice(-1) : '';
    return holdLast ? piece.slice(0, -1) : piece;
  }

  /** What is still held, at the end of the text. */
  rest(): string {
    const rest = this.#carry;
    this.#carry = '';
    return rest;
  }
}

export function createStreamingRenderer(options: RendererOptions): StreamingRenderer {
  return new Renderer(options);
}

class Renderer implements StreamingRenderer {
  readonly #o: RendererOptions;
  readonly #painter: RowPainter;
  readonly #carry = new PieceCarry();
  #line = '';
  #mode: Mode = { kind: 'start' };
  /** The terminal's width as last read (before each piece): what the rows on the screen were laid out for. */
  #width: number;
  #code: CodeBlock | undefined;
  readonly #tables: TableBlock;
  readonly #setext = new SetextHold();

  constructor(options: RendererOptions) {
    this.#o = options;
    this.#painter = new RowPainter(options.color, options.hyperlinks);
    this.#tables = new TableBlock(this.#painter, options);
    this.#width = this.#readColumns();
  }

  push(text: string): void {
    this.#followWidth();
    this.#feedText(neutraliseForTerminal(this.#carry.take(text)));
    this.#show();
    this.#flush();
  }

  end(): void {
    this.#followWidth();
    const rest = this.#carry.rest();
    if (rest !== '') this.#feedText(neutraliseForTerminal(rest));
    if (this.#mode.kind !== 'start' || this.#line !== '') this.#feed('', true);
    if (this.#setext.release() !== undefined) this.#painter.finish();
    this.#tables.close(this.#width);
    if (this.#tables.heldHeader !== undefined) this.#tables.releaseHeader(this.#proseOptions());
    this.#painter.settle();
    this.#flush();
  }

  refresh(): void {
    this.#followWidth();
    this.#flush();
  }

  /**
   * A resize since the width was last read: the row under the cursor (a line of prose, a table
   * row's preview, a held header or heading line, a line of code) is cleared and drawn again at
   * the new width. Prose is laid out again, rows it no longer fits in finished; code keeps its
   * rule and is written back as it was, for the terminal to wrap.
   */
  #followWidth(): void {
    const before = this.#width;
    const now = this.#readColumns();
    if (now === before) return;
    this.#width = now;
    const mode = this.#mode;
    this.#painter.resized(before, now, this.#o.reflows === true, mode.kind === 'code');
    if (mode.kind === 'flow') mode.flow.rewrap();
    else if (mode.kind === 'code') this.#code!.fit(mode.line, now);
    else if (mode.kind === 'start') this.#redrawHeld();
    this.#tables.resized(now);
    this.#show();
  }

  /** A line held on the current row, undecided, drawn again at the width now. */
  #redrawHeld(): void {
    const header = this.#tables.heldHeader;
    if (header !== undefined) {
      this.#painter.show(previewCells(header, this.#width));
      return;
    }
    const text = this.#setext.heldText;
    if (text === undefined) return;
    // Held only while it takes one row: if it no longer does, it is a paragraph line, finished.
    let wrapped = false;
    const flow = plainFlow([], [], PLAIN, false, {
      ...this.#proseOptions(),
      onRow: (cells) => {
        wrapped = true;
        this.#painter.commit(cells);
      },
    });
    flow.push(text);
    const last = flow.end();
    if (!wrapped) {
      this.#painter.show(last);
      return;
    }
    this.#setext.release();
    this.#painter.commit(last);
  }

  #flush(): void {
    const bytes = this.#painter.take();
    if (bytes !== '') this.#o.write(bytes);
  }

  #readColumns(): number {
    return usableColumns(this.#o.columns());
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
        if (mode.source !== undefined) mode.source += piece;
        if (complete) this.#endFlowLine(mode);
        return;
      case 'code':
        this.#code!.append(mode.line, piece, this.#width);
        if (complete) this.#finishCode(mode.line);
        return;
      case 'row':
        this.#line += piece;
        if (complete) this.#finishRow(mode.header);
        return;
      case 'start':
        this.#line += piece;
        this.#decide(complete);
    }
  }

  #nextLine(): void {
    const mode = this.#mode;
    this.#setext.nextLine(mode.kind === 'flow' && mode.source !== undefined);
    this.#mode = { kind: 'start' };
    this.#line = '';
  }

  /** Decide what the current line is, if its first characters allow it yet. */
  #decide(complete: boolean): void {
    const line = this.#line;
    if (this.#setext.holding) {
      const underline = this.#setext.underline(line, complete);
      if (underline === 'wait') return;
      const text = this.#setext.release()!;
      if (underline !== 'none') {
        // A heading's text: drawn as the heading, over the row it held.
        this.#line = `${'#'.repeat(underline)} ${text}`;
        this.#decide(true);
        return;
      }
      // Not an underline: the held line was a paragraph line after all, finished as drawn.
      this.#painter.finish();
    }
    if (this.#code) {
      const next = this.#code.follow(line, complete, this.#width);
      if (next === 'wait') return;
      if (next === 'closed') {
        this.#code = undefined;
        this.#nextLine();
        return;
      }
      this.#mode = { kind: 'code', line: next };
      if (complete) this.#finishCode(next);
      return;
    }
    const table = this.#tables.follow(line, complete, this.#width, () => this.#proseOptions());
    if (table === 'wait') return;
    if (table === 'started') {
      this.#nextLine();
      return;
    }
    if (table === 'row') {
      this.#mode = { kind: 'row', header: false };
      if (complete) this.#finishRow(false);
      return;
    }
    const start = classifyLine(line, complete);
    switch (start.kind) {
      case 'wait':
        return;
      case 'blank':
        this.#painter.commit(quoteBars(start.quote));
        this.#nextLine();
        return;
      case 'rule':
        this.#painter.commit(ruleCells(start.quote, start.indent, this.#width));
        this.#nextLine();
        return;
      case 'fence': {
        const language = start.info.split(/\s/)[0] ?? '';
        this.#code = new CodeBlock({ char: start.char, length: start.length, quote: start.quote, language }, this.#painter, this.#o.highlighter);
        // The fences themselves are hidden; the language, if given, is shown once as a label.
        if (language !== '') this.#painter.commit(codeLabelCells(start.quote, language, this.#width));
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

  /** A paragraph line complete: held unfinished when it may be a setext heading's text (one row, a paragraph's first line). */
  #endFlowLine(mode: Extract<Mode, { kind: 'flow' }>): void {
    const cells = mode.flow.end();
    if (mode.source !== undefined && this.#setext.hold(mode.source)) this.#painter.show(cells);
    else this.#painter.commit(cells);
    this.#nextLine();
  }

  #startFlow(start: ProseStart, line: string, complete: boolean): void {
    const flow = proseFlow(start, this.#proseOptions());
    // Plain paragraph text at the left margin: what a setext underline can turn into a heading.
    const plain = start.kind === 'text' && start.quote === 0 && start.indent === 0;
    this.#mode = { kind: 'flow', flow, source: plain ? line.slice(start.content) : undefined };
    this.#line = '';
    flow.push(line.slice(start.content));
    if (complete) this.#endFlowLine(this.#mode as Extract<Mode, { kind: 'flow' }>);
  }

  #proseOptions(): ProseOptions {
    // A function: after a resize the row being written is laid out again (rewrap), at the width now.
    return {
      width: () => this.#width,
      color: this.#o.color,
      hyperlinks: this.#o.hyperlinks,
      onRow: (cells) => {
        this.#painter.commit(cells);
        this.#setext.rowFinished();
      },
    };
  }

  #finishCode(line: CodeLine): void {
    this.#code!.finish(line, this.#o.color);
    this.#nextLine();
  }

  #finishRow(header: boolean): void {
    this.#tables.row(this.#line, header, this.#width);
    this.#nextLine();
  }

  /** Draw the row being written as it stands now. */
  #show(): void {
    const mode = this.#mode;
    if (mode.kind === 'flow') this.#painter.show(mode.flow.current());
    else if (mode.kind === 'row') this.#painter.show(previewCells(this.#line, this.#width));
  }
}
