/**
 * Bytes → lines, by the WHATWG server-sent events rules
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream):
 * a line ends at CRLF, LF or a lone CR, and one UTF-8 BOM at the very start is dropped.
 *
 * Splitting happens on bytes, before decoding: CR and LF never occur inside a multi-byte UTF-8
 * sequence, so a character split across two chunks is reassembled with the rest of its line.
 */

const LF = 0x0a;
const CR = 0x0d;

export class LineDecoder {
  readonly #decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /** Bytes of the current line not yet ended. */
  #pending: Uint8Array[] = [];
  /** The previous chunk ended in CR: an LF at the start of the next one belongs to it. */
  #afterCR = false;
  #atStart = true;

  /** Feed one chunk; returns the lines it completed. */
  push(chunk: Uint8Array): string[] {
    const lines: string[] = [];
    let start = 0;
    if (this.#afterCR && chunk.length > 0) {
      if (chunk[0] === LF) start = 1;
      this.#afterCR = false;
    }
    let index = start;
    const length = chunk.length;
    while (index < length) {
      const byte = chunk[index];
      if (byte !== LF && byte !== CR) {
        index++;
        continue;
      }
      lines.push(this.#finishLine(chunk.subarray(start, index)));
      if (byte === CR) {
        if (index + 1 === length) this.#afterCR = true;
        else if (chunk[index + 1] === LF) index++;
      }
      index++;
      start = index;
    }
    if (start < length) this.#pending.push(chunk.slice(start));
    return lines;
  }

  /** End of stream: a last line without its line end still counts. */
  end(): string[] {
    return this.#pending.length > 0 ? [this.#finishLine(new Uint8Array(0))] : [];
  }

  #finishLine(tail: Uint8Array): string {
    let bytes = tail;
    if (this.#pending.length > 0) {
      this.#pending.push(tail);
      bytes = Buffer.concat(this.#pending);
      this.#pending = [];
    }
    let line = this.#decoder.decode(bytes);
    if (this.#atStart) {
      this.#atStart = false;
      if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    }
    return line;
  }
}
