/**
 * Bytes → lines, by the WHATWG server-sent events rules
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream):
 * a line ends at CRLF, LF or a lone CR, and one UTF-8 BOM at the very start is dropped.
 *
 * Each chunk is decoded whole by a streaming UTF-8 decoder (which carries a character split across
 * two chunks over to the next), and lines are cut from the text. That equals cutting on bytes
 * first, because CR and LF never occur inside a multi-byte UTF-8 sequence, and it is much cheaper:
 * one decode per network read instead of a Buffer view and a decode per line.
 *
 * A line that never ends is stopped at MAX_SSE_LINE_BYTES (limits.ts), counted in characters of
 * the decoded text (never more than its bytes), rather than held until memory runs out.
 */
import { MalformedResponseError } from '../../core/errors.js';
import { MAX_SSE_LINE_BYTES } from '../limits.js';
import { describeBytes } from '../../core/byte-size.js';

/** The error for a line or an event beyond the bound. */
export function sseTooLong(what: string): MalformedResponseError {
  return new MalformedResponseError(`the service sent ${what} longer than ${describeBytes(MAX_SSE_LINE_BYTES)}, far beyond any real answer; stopped reading`, {
    hint: 'the service, or a proxy in front of it, is not sending a usable event stream; check the base URL',
  });
}

export class LineDecoder {
  // A streaming decoder drops one BOM at the very start of the stream, also one split across
  // chunks, and no other.
  readonly #decoder = new TextDecoder('utf-8');
  /** Text of the current line not yet ended. */
  #pending = '';
  /** The previous chunk ended in CR: an LF at the start of the next one belongs to it. */
  #afterCR = false;

  /** Feed one chunk; returns the lines it completed. */
  push(chunk: Uint8Array): string[] {
    return this.#split(this.#decoder.decode(chunk, { stream: true }));
  }

  /** End of stream: a last line without its line end still counts. */
  end(): string[] {
    const lines = this.#split(this.#decoder.decode());
    if (this.#pending !== '') lines.push(this.#take(''));
    return lines;
  }

  #split(text: string): string[] {
    const lines: string[] = [];
    let start = 0;
    if (this.#afterCR && text.length > 0) {
      if (text.charCodeAt(0) === 0x0a) start = 1;
      this.#afterCR = false;
    }
    const length = text.length;
    // indexOf (native) rather than a character loop; most streams have no CR at all, so its
    // search usually runs once per chunk.
    let nextLF = text.indexOf('\n', start);
    let nextCR = text.indexOf('\r', start);
    while (nextLF !== -1 || nextCR !== -1) {
      const isCR = nextCR !== -1 && (nextLF === -1 || nextCR < nextLF);
      const index = isCR ? nextCR : nextLF;
      lines.push(this.#take(text.slice(start, index)));
      let next = index + 1;
      if (isCR) {
        if (next === length) this.#afterCR = true;
        else if (text.charCodeAt(next) === 0x0a) next++;
      }
      start = next;
      if (nextLF !== -1 && nextLF < start) nextLF = text.indexOf('\n', start);
      if (nextCR !== -1 && nextCR < start) nextCR = text.indexOf('\r', start);
    }
    if (start < length) {
      this.#pending += text.slice(start);
      if (this.#pending.length > MAX_SSE_LINE_BYTES) throw sseTooLong('a stream line');
    }
    return lines;
  }

  /** The current line, ended by `tail`: the pending text plus the tail. */
  #take(tail: string): string {
    if (this.#pending === '') return tail;
    const line = this.#pending + tail;
    this.#pending = '';
    return line;
  }
}
