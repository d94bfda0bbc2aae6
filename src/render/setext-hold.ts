/**
 * Setext headings (a paragraph line underlined by `===` or `---`) while streaming. A paragraph's
 * first line that fit on one row stays the current row, not finished, until the next line
 * decides: an underline makes it a heading, drawn in its place; any other line finishes it as
 * it is. A longer line is drawn row by row as always (each row is drawn once and never again),
 * so its underline is a rule: holding more than one row would hold back the stream.
 */
export type Underline = 'wait' | 'none' | 1 | 2;

const UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;

export class SetextHold {
  /** The held line's text. */
  #held: string | undefined;
  /** A row of the current line was finished: it wrapped. */
  #wrapped = false;
  /** The line before the current one was paragraph text. */
  #afterParagraph = false;

  get holding(): boolean {
    return this.#held !== undefined;
  }

  /** The held line's text, while one is held. */
  get heldText(): string | undefined {
    return this.#held;
  }

  /** A row of the current line was finished (it wrapped): it cannot be held. */
  rowFinished(): void {
    this.#wrapped = true;
  }

  /** A new line starts; `afterParagraph`: the line that ended was paragraph text at the margin. */
  nextLine(afterParagraph: boolean): void {
    this.#afterParagraph = afterParagraph;
    this.#wrapped = false;
  }

  /** A paragraph line at the margin ended: true when it is held (a paragraph's first line, one row). */
  hold(text: string): boolean {
    if (this.#afterParagraph || this.#wrapped) return false;
    this.#held = text;
    return true;
  }

  /** What the line after the held one is so far: more is needed, not an underline, or a heading level. */
  underline(line: string, complete: boolean): Underline {
    if (UNDERLINE.test(line)) {
      if (!complete) return 'wait'; // `--` may still become `-- text`, `==` text
      return line.trim()[0] === '=' ? 1 : 2;
    }
    return !complete && /^ {0,3}$/.test(line) ? 'wait' : 'none';
  }

  /** The held text, no longer held. */
  release(): string | undefined {
    const held = this.#held;
    this.#held = undefined;
    return held;
  }
}
