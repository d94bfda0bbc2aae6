/**
 * Reading input lines with Node's readline: editing keys, Up/Down history, bracketed paste
 * kept whole and keys handed on one by one (key-feed.ts), Tab completion (complete-line.ts), Ctrl-C and Ctrl-D reported
 * to the caller.
 *
 * One readline interface serves the whole session, with the terminal in raw mode throughout.
 * Between prompts it is paused: keys typed while a reply streams wait (unechoed) for the next
 * prompt, and every line typed ahead is kept in a queue, none lost. Ctrl-C during a reply is
 * caught by the key feed and handed to `whileBusy`'s handler.
 */
import { openSync } from 'node:fs';
import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { ReadStream } from 'node:tty';
import { UsageError } from '../../../core/errors.js';
import type { IO } from '../../../terminal/io.js';
import { KEEP, type InputHistory } from '../../../conversations/input-history.js';
import { completeSessionLine, isCommandLine, type Completion, type CompletionContext } from './complete-line.js';
import { DISABLE_BRACKETED_PASTE, ENABLE_BRACKETED_PASTE, KeyFeed, PASTED_NEWLINE, PASTED_TAB } from './key-feed.js';
import { ReadQueue, type ReadResult } from './read-queue.js';

export type { ReadResult } from './read-queue.js';

/**
 * The keyboard of the session: stdin when it is a terminal, otherwise /dev/tty (for
 * `cat notes.md | svc chat -i`, where stdin was the pipe).
 */
export interface TerminalInput {
  stream: ReadStream;
  fd: number;
}

export function openTerminalInput(io: IO): TerminalInput {
  if (!io.stderrIsTTY) throw new UsageError('the interactive session needs a terminal on stderr', { hint: 'give a prompt for a one-shot answer' });
  if (io.stdinKind === 'tty' && io.stdin instanceof ReadStream) return { stream: io.stdin, fd: 0 };
  let fd: number;
  try {
    fd = openSync('/dev/tty', 'r');
  } catch {
    throw new UsageError('-i needs a terminal to go on talking from, and there is none', { hint: 'without -i, the piped text gets a one-shot answer' });
  }
  return { stream: new ReadStream(fd), fd };
}

export class LineReader {
  readonly #terminal: TerminalInput;
  readonly #output: Writable;
  readonly #history: InputHistory;
  readonly #feed = new KeyFeed();
  readonly #rl: Interface;
  readonly #results = new ReadQueue();
  /** Whether the line being read goes into the input history. */
  #remember = true;
  /** Where the terminal's keys go instead of readline, while a question is asked mid-reply (divertKeys). */
  #divert: ((chunk: string) => void) | undefined;

  /** `completion`: the session's folder and environment, for Tab; without it Tab is just a tab. */
  constructor(terminal: TerminalInput, output: Writable, history: InputHistory, completion?: CompletionContext) {
    this.#terminal = terminal;
    this.#output = output;
    this.#history = history;
    terminal.stream.setEncoding('utf8');
    this.#takeTerminal();
    const resizeListeners = new Set(output.listeners('resize'));
    this.#rl = createInterface({
      // readline reads keys from any event emitter that pauses and resumes (KeyFeed).
      input: this.#feed as unknown as Readable,
      output,
      terminal: true,
      history: [...history.entries],
      historySize: KEEP,
      removeHistoryDuplicates: true,
      tabSize: 4,
      ...(completion ? { completer: (line: string) => this.#complete(line, completion) } : {}),
    });
    this.#rl.pause();
    this.#feed.insert = (text) => this.#rl.write(text);
    this.#onlyWhilePrompting(output, resizeListeners);
    this.#rl.on('line', (text) => {
      // Kept for Up by remember(), once the session knows the whole message this line is part of.
      if (!this.#remember) this.#forget([text]);
      this.#deliver({ kind: 'line', text });
    });
    this.#rl.on('SIGINT', () => {
      const hadText = this.#rl.line.length > 0;
      // Empty the line being edited (Ctrl-E, Ctrl-U), as a shell does on Ctrl-C.
      this.#rl.write(null, { ctrl: true, name: 'e' });
      this.#rl.write(null, { ctrl: true, name: 'u' });
      output.write(hadText ? '^C\n' : '\n');
      this.#deliver({ kind: 'interrupt', hadText });
    });
    this.#rl.on('close', () => {
      if (this.#results.close()) output.write('\n');
      // Not #deliver: a closed interface cannot be paused (Node 24 throws ERR_USE_AFTER_CLOSE).
      this.#results.deliver({ kind: 'eof' });
    });
  }

  /**
   * Show `prompt` and wait for a line, Ctrl-C or Ctrl-D; lines typed ahead come first. With
   * `remember: false` (the answer to a question, y or n) the line is not kept for Up next time.
   */
  read(prompt: string, options: { remember?: boolean } = {}): Promise<ReadResult> {
    this.#remember = options.remember ?? true;
    const ready = this.#results.ready();
    if (ready) return Promise.resolve(ready);
    const next = this.#results.next();
    this.#rl.setPrompt(prompt);
    this.#rl.prompt();
    return next;
  }

  /**
   * Keep `message` for Up, as one entry, in place of the `lines` it was typed as (a `\` line, a
   * `"""` block): Up then brings the whole message back, to edit and send again.
   */
  remember(message: string, lines: readonly string[]): void {
    this.#forget(lines);
    if (message.trim() === '') return;
    // As a paste is kept: its line breaks shown as ␤ on the one input line, turned back into
    // line breaks when it is sent again (composer.ts).
    const entry = message.split('\n').join(PASTED_NEWLINE).split('\t').join(PASTED_TAB);
    const history = this.#readlineHistory;
    const at = history.indexOf(entry);
    if (at !== -1) history.splice(at, 1);
    history.unshift(entry);
    this.#history.add(entry);
  }

  /** Take `lines` back out of readline's own list (it keeps each line as it is entered). */
  #forget(lines: readonly string[]): void {
    const history = this.#readlineHistory;
    for (const line of [...lines].reverse()) if (history[0] === line) history.shift();
  }

  /** readline's own list of earlier lines, newest first (a documented field its typings leave out). */
  get #readlineHistory(): string[] {
    return (this.#rl as unknown as { history: string[] }).history;
  }

  /** While a reply streams: Ctrl-C calls `onInterrupt`. Call the returned function when done. */
  whileBusy(onInterrupt: () => void): () => void {
    this.#feed.onInterrupt = onInterrupt;
    return () => {
      this.#feed.onInterrupt = undefined;
    };
  }

  /**
   * While a reply is on its way: the keys pressed from now on go to `onKey` (a question about a
   * tool call, terminal/tool-approval.ts), not to the next prompt; keys typed before stay
   * there. Until the returned function is called.
   */
  divertKeys(onKey: (chunk: string) => void): () => void {
    this.#divert = onKey;
    return () => {
      if (this.#divert === onKey) this.#divert = undefined;
    };
  }

  /** Hand the terminal to another program (the editor); call the returned function after. */
  lend(): () => void {
    this.#giveTerminalBack();
    return () => this.#takeTerminal();
  }

  /** Give up waiting (SIGTERM): the pending read ends as if Ctrl-D was pressed. */
  cancel(): void {
    this.#rl.close();
  }

  /** Restore the terminal as it was. */
  close(): void {
    if (this.#results.close()) this.#rl.close();
    this.#giveTerminalBack();
    if (this.#terminal.fd !== 0) this.#terminal.stream.destroy();
  }

  /**
   * readline redraws its prompt line whenever the terminal is resized, even while paused: during
   * a reply (SIGWINCH while it streams) that would draw the prompt over the line being written
   * and erase what follows. Its resize listener runs only while a prompt is shown.
   */
  #onlyWhilePrompting(output: Writable, before: Set<unknown>): void {
    for (const listener of output.listeners('resize')) {
      if (before.has(listener)) continue;
      const redraw = listener as () => void;
      const guarded = (): void => {
        if (this.#results.waiting && !this.#results.closed) redraw();
      };
      output.off('resize', redraw);
      output.on('resize', guarded);
      this.#rl.on('close', () => output.off('resize', guarded));
    }
  }

  /**
   * With a completer, readline never inserts a typed Tab itself; in a message (not a slash
   * command) the Tab is text the user typed, so it is inserted here.
   */
  #complete(line: string, context: CompletionContext): Completion {
    const completion = completeSessionLine(line, context);
    if (!isCommandLine(line)) this.#rl.write('\t');
    return completion;
  }

  #deliver(result: ReadResult): void {
    this.#rl.pause();
    this.#results.deliver(result);
  }

  readonly #onKeys = (chunk: string): void => {
    if (this.#divert) this.#divert(chunk);
    else this.#feed.take(chunk);
  };
  /** The terminal went away (a hang-up): readline ends the session as on Ctrl-D. */
  readonly #onTerminalEnd = (): void => {
    this.#feed.emit('end');
  };

  #takeTerminal(): void {
    const { stream } = this.#terminal;
    stream.setRawMode(true);
    stream.on('data', this.#onKeys);
    stream.on('end', this.#onTerminalEnd);
    this.#output.write(ENABLE_BRACKETED_PASTE);
  }

  #giveTerminalBack(): void {
    const { stream } = this.#terminal;
    stream.off('data', this.#onKeys);
    stream.off('end', this.#onTerminalEnd);
    stream.pause();
    if (stream.isRaw) stream.setRawMode(false);
    this.#output.write(DISABLE_BRACKETED_PASTE);
  }
}
