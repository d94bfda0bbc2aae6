/**
 * Reply text → stdout: rendered as Markdown or neutralised on a terminal, exact in a pipe, ended
 * with one newline, with backpressure, and a reader that went away (`| head -1`) treated as a
 * quiet success.
 */
import { once } from 'node:events';
import { colorWanted, type IO } from '../../terminal/io.js';
import type { StreamingRenderer } from '../../render/streaming-renderer.js';
import { classifyStdoutError } from '../../terminal/stdout-check.js';
import { forOutput } from '../../core/terminal-text.js';

/** Makes the renderer that draws a reply, given where its bytes go (reply.ts). */
export type OpenRenderer = (write: (bytes: string) => void) => StreamingRenderer;

/**
 * Where the model's reasoning text goes: above the answer on the terminal (dim, set apart by a
 * blank line), to stderr (`--show-reasoning` in a pipe), or nowhere (the default in a pipe, and
 * --json, which keeps it in the object). Never into stdout's data.
 */
export type ReasoningShown = 'terminal' | 'stderr' | 'hidden';

const DIM = '\u001b[2m';
const UNDIM = '\u001b[22m';

export class ReplyWriter {
  readonly #io: IO;
  readonly #onClosed: () => void;
  /** The renderer's module, still loading while the request is in flight; absent when not rendering. */
  readonly #loading: Promise<OpenRenderer> | undefined;
  #renderer: StreamingRenderer | undefined;
  #wroteAny = false;
  #endsWithNewline = false;
  #closed = false;
  /** stdout's buffer is full: wait for 'drain' before the next piece. */
  #mustDrain = false;
  #failure: unknown;
  readonly #reasoningShown: ReasoningShown;
  /** Reasoning was written and not yet closed off (its dim style, its line, the gap after it). */
  #reasoningOpen = false;
  #reasoningEndsWithNewline = false;
  readonly #dim: boolean;
  /** Plain mode on a terminal: a line is printed once it is whole, never in pieces (plainWanted in terminal/io.ts). */
  readonly #wholeLines: boolean;
  #partial = '';

  /**
   * `onClosed` is called once when stdout can take no more (EPIPE or another write error).
   * With `renderer`, the text is rendered: the renderer neutralises it itself, before styling,
   * so its bytes go to stdout as they are.
   */
  constructor(io: IO, onClosed: () => void, renderer?: Promise<OpenRenderer>, reasoning: ReasoningShown = 'hidden') {
    this.#io = io;
    this.#reasoningShown = reasoning;
    this.#dim = reasoning === 'terminal' ? colorWanted(io.env, io.stdoutIsTTY) : reasoning === 'stderr' && io.colorEnabled;
    this.#wholeLines = io.stdoutIsTTY && io.plain;
    this.#onClosed = onClosed;
    this.#loading = renderer;
    // Awaited by the first write; a reply that fails before any text never asks for it.
    renderer?.catch(() => {});
    io.stdout.on('error', this.#onError);
  }

  /** True once the reader of stdout has gone. */
  get closed(): boolean {
    return this.#closed;
  }

  /** A write error other than a reader leaving: the output could not be written (exit 1). */
  get failure(): unknown {
    return this.#failure;
  }

  #onError = (error: unknown): void => {
    if (this.#closed) return;
    this.#closed = true;
    const state = classifyStdoutError(this.#io.stdout, error);
    if (state.kind === 'failed') this.#failure = state.error;
    this.#onClosed();
  };

  /** Wait until the first text can be drawn (the renderer loaded, when rendering). */
  async ready(): Promise<void> {
    if (this.#loading && !this.#renderer) this.#renderer = (await this.#loading)((bytes) => this.#send(bytes));
  }

  /**
   * Reasoning text, where {@link ReasoningShown} says. On the terminal it is shown only before the
   * answer: once the answer is being drawn, text between its lines would tear the rendering.
   */
  async reasoning(text: string): Promise<void> {
    if (text === '' || this.#reasoningShown === 'hidden') return;
    const shown = forOutput(text, this.#reasoningShown === 'terminal' ? this.#io.stdoutIsTTY : this.#io.stderrIsTTY);
    if (this.#reasoningShown === 'stderr') {
      this.#io.stderr.write(`${this.#reasoningOpen || !this.#dim ? '' : DIM}${shown}`);
    } else {
      if (this.#closed || this.#wroteAny) return;
      this.#send(`${this.#reasoningOpen || !this.#dim ? '' : DIM}${shown}`);
    }
    this.#reasoningOpen = true;
    this.#reasoningEndsWithNewline = text.endsWith('\n');
    await this.#drained();
  }

  /** Close off the reasoning shown: its style put back, its last line ended, a blank line before the answer. */
  #endReasoning(): void {
    if (!this.#reasoningOpen) return;
    this.#reasoningOpen = false;
    const close = `${this.#dim ? UNDIM : ''}${this.#reasoningEndsWithNewline ? '' : '\n'}`;
    if (this.#reasoningShown === 'stderr') this.#io.stderr.write(close);
    else this.#send(`${close}\n`);
  }

  async write(text: string): Promise<void> {
    if (this.#closed || text === '') return;
    this.#endReasoning();
    this.#wroteAny = true;
    if (this.#loading) {
      await this.ready();
      this.#renderer?.push(text);
    } else {
      this.#endsWithNewline = text.endsWith('\n');
      if (this.#wholeLines) {
        // A screen reader reads each line once: the text up to the last newline goes, the rest waits.
        const held = this.#partial + text;
        const cut = held.lastIndexOf('\n') + 1;
        this.#partial = held.slice(cut);
        if (cut > 0) this.#send(forOutput(held.slice(0, cut), true));
      } else this.#send(forOutput(text, this.#io.stdoutIsTTY));
    }
    await this.#drained();
  }

  /**
   * End the reply: a rendered one has its last line finished and the terminal's style put back
   * (also after Ctrl-C); a plain one gets a newline unless it has one. Nothing when no text came.
   */
  async finish(): Promise<void> {
    this.#endReasoning();
    if (this.#renderer) {
      this.#renderer.end();
      await this.#drained();
    } else if (this.#wroteAny && !this.#endsWithNewline) {
      await this.write('\n');
    }
    if (this.#partial !== '') {
      this.#send(`${forOutput(this.#partial, true)}\n`);
      this.#partial = '';
    }
  }

  /** Stop listening for errors; stdout stays open for whoever writes next. */
  dispose(): void {
    this.#io.stdout.off('error', this.#onError);
  }

  #send(bytes: string): void {
    if (!this.#closed && bytes !== '' && !this.#io.stdout.write(bytes)) this.#mustDrain = true;
  }

  async #drained(): Promise<void> {
    if (!this.#mustDrain) return;
    this.#mustDrain = false;
    try {
      await once(this.#io.stdout, 'drain');
    } catch {
      // The 'error' listener above has recorded why.
    }
  }
}
