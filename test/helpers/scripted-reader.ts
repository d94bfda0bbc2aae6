/**
 * A line reader for the interactive session that hands it typed lines, one after another, then
 * Ctrl-D; `pressCtrlC()` is Ctrl-C while the session is busy (a reply or an image on its way).
 * CTRL_C among the lines is Ctrl-C pressed at that prompt (or at a question asked then).
 */
import type { ReadResult } from '../../src/commands/chat/interactive/line-reader.js';
import type { SessionReader } from '../../src/commands/chat/interactive/session-state.js';

/** Ctrl-C at a prompt, as one of a ScriptedReader's lines. */
export const CTRL_C = '\u0003';

export class ScriptedReader implements SessionReader {
  readonly #lines: string[];
  #onInterrupt: (() => void) | undefined;
  constructor(lines: string[]) {
    this.#lines = [...lines];
  }
  async read(): Promise<ReadResult> {
    const text = this.#lines.shift();
    if (text === CTRL_C) return { kind: 'interrupt', hadText: false };
    return text === undefined ? { kind: 'eof' } : { kind: 'line', text };
  }
  whileBusy(onInterrupt: () => void): () => void {
    this.#onInterrupt = onInterrupt;
    return () => {
      this.#onInterrupt = undefined;
    };
  }
  pressCtrlC(): void {
    this.#onInterrupt?.();
  }
  lend(): () => void {
    return () => {};
  }
  cancel(): void {}
  close(): void {}
}
