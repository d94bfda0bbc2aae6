/**
 * Between the terminal and Node's readline: keys handed on one by one, text in one piece
 * (KeyFeed), and bracketed paste (xterm's mode 2004), where the terminal wraps pasted text in
 * ESC[200~ … ESC[201~. readline would send each pasted line as its own message, so the markers
 * are dropped and newlines inside a paste become PASTED_NEWLINE, a visible stand-in that
 * MessageComposer turns back into "\n". Tabs likewise become PASTED_TAB: a Tab reaching readline
 * would ask for completion, not be text.
 */
import { EventEmitter } from 'node:events';

/** U+2424 SYMBOL FOR NEWLINE: shown in the input line where a pasted line break is. */
export const PASTED_NEWLINE = '\u2424';
/** U+2409 SYMBOL FOR HORIZONTAL TABULATION: a pasted tab, turned back into "\t" by the composer. */
export const PASTED_TAB = '\u2409';

export const PASTE_START = '\u001b[200~';
export const PASTE_END = '\u001b[201~';
export const ENABLE_BRACKETED_PASTE = '\u001b[?2004h';
export const DISABLE_BRACKETED_PASTE = '\u001b[?2004l';

/** Pure core: returns the text for readline and whether a paste is still open at the end. */
export function filterPaste(text: string, pasting: boolean): { out: string; pasting: boolean; held: string } {
  let out = '';
  let index = 0;
  let inPaste = pasting;
  while (index < text.length) {
    const marker = inPaste ? PASTE_END : PASTE_START;
    const found = text.indexOf(marker, index);
    const chunk = found === -1 ? text.slice(index) : text.slice(index, found);
    out += inPaste ? chunk.replace(/\r\n|\r|\n/g, PASTED_NEWLINE).replaceAll('\t', PASTED_TAB) : chunk;
    if (found === -1) break;
    inPaste = !inPaste;
    index = found + marker.length;
  }
  // A marker cut across two reads: hold its beginning back until the rest arrives.
  let held = '';
  const escape = out.lastIndexOf('\u001b');
  if (escape !== -1 && escape > out.length - PASTE_START.length) {
    const tail = out.slice(escape);
    if (PASTE_START.startsWith(tail) || PASTE_END.startsWith(tail)) {
      held = tail;
      out = out.slice(0, escape);
    }
  }
  return { out, pasting: inPaste, held };
}

const CTRL_C = '\u0003';

/**
 * What readline is given, in order: text to insert where the cursor is (a run of printable
 * characters: what was typed in one read, or a whole paste), or one key (a control character, or
 * an escape sequence: CSI with its parameters, SS3, or ESC before a key, as Alt sends it).
 */
export type KeyInput = { text: string } | { key: string };

const INPUT = /[^\u0000-\u001f\u007f-\u009f]+|\u001b+(?:\[[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|O.?|[^])?|[^]/gu;

/** `text` as readline's inputs, in order; a sequence cut off at the end stays as far as it goes. */
export function splitInput(text: string): KeyInput[] {
  return (text.match(INPUT) ?? []).map((piece) => (/^[^\u0000-\u001f\u007f-\u009f]/u.test(piece) ? { text: piece } : { key: piece }));
}

/**
 * readline's input: the terminal's reads, paste markers taken out (filterPaste), handed on as
 * keys one by one and text in one piece.
 *
 * Node's readline (20 and 22) inserts every character of one read but the last at the end of the
 * line, wherever the cursor is ("abc" pasted at the start of "hello" becomes "heclloab", and the
 * screen and the sent text disagree), and it works out the line's rows afresh for each character
 * of a read, so a long paste takes seconds. Here each key is a read of its own, and text goes
 * through `insert` (readline's public `write`), which puts it where the cursor is in one step, on
 * every Node release.
 *
 * readline pauses and resumes this object as it would a stream; what comes while it is paused
 * (keys typed while a reply streams) waits here, in order, none lost.
 */
export class KeyFeed extends EventEmitter {
  #pasting = false;
  #held = '';
  #paused = false;
  #flushing = false;
  readonly #waiting: KeyInput[] = [];
  /** Where text is inserted: readline's `write`, set once the interface exists. */
  insert: (text: string) => void = () => {};
  /**
   * While a reply streams, readline is paused and the terminal stays in raw mode (so keys typed
   * ahead are not echoed into the reply); Ctrl-C is then caught here instead of by readline.
   */
  onInterrupt: (() => void) | undefined;

  /** One read of the terminal. */
  take(chunk: string): void {
    let text = this.#held + chunk;
    if (this.onInterrupt && text.includes(CTRL_C)) {
      text = text.split(CTRL_C).join('');
      this.onInterrupt();
    }
    const result = filterPaste(text, this.#pasting);
    this.#pasting = result.pasting;
    this.#held = result.held;
    this.#waiting.push(...splitInput(result.out));
    this.#flush();
  }

  pause(): this {
    this.#paused = true;
    return this;
  }

  /** Called by readline as it shows a prompt: what waited goes on once the prompt is drawn. */
  resume(): this {
    this.#paused = false;
    process.nextTick(() => this.#flush());
    return this;
  }

  #flush(): void {
    // A key handed on may pause readline (Enter ends the line) or, through it, hand on more.
    if (this.#flushing) return;
    this.#flushing = true;
    try {
      while (!this.#paused && this.#waiting.length > 0) {
        const input = this.#waiting.shift()!;
        if ('text' in input) this.insert(input.text);
        else this.emit('data', input.key);
      }
    } finally {
      this.#flushing = false;
    }
  }
}
