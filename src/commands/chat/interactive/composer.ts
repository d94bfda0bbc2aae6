/**
 * Building one message from several typed lines: a line ending in "\" goes on, and a line
 * starting with `"""` opens a block closed by a line ending with `"""`. Pasted newlines arrive
 * as PASTED_NEWLINE (see key-feed.ts) and become real ones here, as do pasted tabs (PASTED_TAB).
 */
import { PASTED_NEWLINE, PASTED_TAB } from './key-feed.js';

const FENCE = '"""';

export type ComposeResult = { done: true; text: string } | { done: false };

export class MessageComposer {
  #lines: string[] = [];
  #inBlock = false;

  /** True while a message is half-typed (the prompt shows a continuation mark). */
  get pending(): boolean {
    return this.#lines.length > 0 || this.#inBlock;
  }

  reset(): void {
    this.#lines = [];
    this.#inBlock = false;
  }

  feed(rawLine: string): ComposeResult {
    const line = rawLine.split(PASTED_NEWLINE).join('\n').split(PASTED_TAB).join('\t');
    if (this.#inBlock) {
      if (line.trimEnd().endsWith(FENCE)) {
        const last = line.trimEnd().slice(0, -FENCE.length);
        // A fence on its own line closes the block without adding an empty line.
        if (last.trim() !== '') this.#lines.push(last);
        return this.#finish();
      }
      this.#lines.push(line);
      return { done: false };
    }
    if (this.#lines.length === 0 && line.trimStart().startsWith(FENCE)) {
      const rest = line.trimStart().slice(FENCE.length);
      if (rest.trimEnd().endsWith(FENCE)) {
        // A whole block on one line: """text"""
        this.#lines.push(rest.trimEnd().slice(0, -FENCE.length));
        return this.#finish();
      }
      this.#inBlock = true;
      if (rest.trim() !== '') this.#lines.push(rest);
      return { done: false };
    }
    if (line.endsWith('\\') && !line.endsWith('\\\\')) {
      this.#lines.push(line.slice(0, -1));
      return { done: false };
    }
    this.#lines.push(line);
    return this.#finish();
  }

  #finish(): ComposeResult {
    const text = this.#lines.join('\n');
    this.reset();
    return { done: true, text };
  }
}
