/**
 * The session's lines in plain mode (plainWanted in terminal/io.ts): the terminal stays in its own line mode,
 * so it echoes and edits what is typed itself and svc never moves the cursor or redraws a line;
 * the prompt is written once, as text. Ctrl-C reaches svc as SIGINT, through the session's
 * interrupt router: at the prompt it is reported as an interrupt (the session says how to leave),
 * while a reply streams it stops the reply. No history recall and no Tab: those need the keys.
 */
import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { InterruptRouter } from '../../../terminal/interrupts.js';
import type { SessionReader } from './session-state.js';
import { ReadQueue, type ReadResult } from './read-queue.js';

export class PlainLineReader implements SessionReader {
  readonly #rl: Interface;
  readonly #output: Writable;
  readonly #interrupts: InterruptRouter;
  readonly #results = new ReadQueue();

  constructor(input: Readable, output: Writable, interrupts: InterruptRouter) {
    this.#output = output;
    this.#interrupts = interrupts;
    this.#rl = createInterface({ input, terminal: false });
    this.#rl.on('line', (text) => this.#results.deliver({ kind: 'line', text }));
    this.#rl.on('close', () => {
      // Ctrl-D at the prompt: the terminal echoes nothing for it, so the line is ended here,
      // before what the session says next ("saved as …") lands after the prompt.
      const atPrompt = this.#results.waiting;
      if (this.#results.close() && atPrompt) output.write('\n');
      this.#results.deliver({ kind: 'eof' });
    });
  }

  read(prompt: string): Promise<ReadResult> {
    const ready = this.#results.ready();
    if (ready) return Promise.resolve(ready);
    // The prompt as plain text: no colour, no redraw (the prompt may carry styles: dropped).
    this.#output.write(prompt.replace(/\u001b\[[0-9;]*m/g, ''));
    const release = this.#interrupts.push(() => {
      this.#output.write('\n');
      this.#results.deliver({ kind: 'interrupt', hadText: false });
    });
    return this.#results.next(release);
  }

  whileBusy(onInterrupt: () => void): () => void {
    return this.#interrupts.push(onInterrupt);
  }

  lend(): () => void {
    // The terminal is in its own line mode already: the editor can have it as it is.
    this.#rl.pause();
    return () => this.#rl.resume();
  }

  cancel(): void {
    this.#rl.close();
  }

  close(): void {
    if (this.#results.close()) this.#rl.close();
  }
}
