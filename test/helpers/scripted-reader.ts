/** A line reader for the interactive session that hands it typed lines, one after another, then Ctrl-D. */
import type { ReadResult } from '../../src/commands/chat/interactive/line-reader.js';
import type { SessionReader } from '../../src/commands/chat/interactive/session-state.js';

export class ScriptedReader implements SessionReader {
  readonly #lines: string[];
  constructor(lines: string[]) {
    this.#lines = [...lines];
  }
  async read(): Promise<ReadResult> {
    const text = this.#lines.shift();
    return text === undefined ? { kind: 'eof' } : { kind: 'line', text };
  }
  whileBusy(): () => void {
    return () => {};
  }
  lend(): () => void {
    return () => {};
  }
  cancel(): void {}
  close(): void {}
}
