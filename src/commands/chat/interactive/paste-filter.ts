/**
 * Bracketed paste (xterm's mode 2004): the terminal wraps pasted text in ESC[200~ … ESC[201~.
 * Node's readline would send each pasted line as its own message, so this filter, between the
 * terminal and readline, drops the markers and turns newlines inside a paste into
 * PASTED_NEWLINE, a visible stand-in that MessageComposer turns back into "\n". Tabs likewise
 * become PASTED_TAB: a Tab reaching readline would ask for completion, not be text.
 */
import { Transform, type TransformCallback } from 'node:stream';

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
 * One key each: an escape sequence (CSI with its parameters, SS3, or ESC before a key, as Alt
 * sends it) or a single character. A sequence cut off at the end stays as far as it goes;
 * readline's key decoder carries it over to the next piece.
 */
const KEY = /\u001b+(?:\[[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|O.?|[^])?|[^]/gu;

/** The keys in `text`, in order; joined again they are `text`. */
export function splitKeys(text: string): string[] {
  return text.match(KEY) ?? [];
}

/**
 * Between the terminal and readline: takes the paste markers out (filterPaste) and hands readline
 * one key per read. Node's readline (20 and 22) inserts every character of a read but the last at
 * the end of the line, wherever the cursor is: "abc" pasted at the start of "hello" became
 * "heclloab", and the screen and the sent text disagreed. A key at a time, it inserts each where
 * the cursor is, on every Node release. The readable side is in object mode so that keys held
 * while readline is paused are never joined into one read again.
 */
export class PasteFilter extends Transform {
  #pasting = false;
  #held = '';
  /**
   * While a reply streams, readline is paused and the terminal stays in raw mode (so keys typed
   * ahead are not echoed into the reply); Ctrl-C is then caught here instead of by readline.
   */
  onInterrupt: (() => void) | undefined;

  constructor() {
    super({ decodeStrings: false, readableObjectMode: true, readableHighWaterMark: 1 << 16 });
  }

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback): void {
    let text = this.#held + chunk.toString();
    if (this.onInterrupt && text.includes(CTRL_C)) {
      text = text.split(CTRL_C).join('');
      this.onInterrupt();
    }
    const result = filterPaste(text, this.#pasting);
    this.#pasting = result.pasting;
    this.#held = result.held;
    for (const key of splitKeys(result.out)) this.push(key);
    done();
  }
}
