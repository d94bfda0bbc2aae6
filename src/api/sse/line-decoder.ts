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
    const length = chunk.length;
    // Find line ends with Buffer.indexOf (native) rather than a byte loop; most streams have
    // no CR at all, so its search usually runs once per chunk.
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let nextLF = bytes.indexOf(LF, start);
    let nextCR = bytes.indexOf(CR, start);
    while (nextLF !== -1 || nextCR !== -1) {
      const isCR = nextCR !== -1 && (nextLF === -1 || nextCR < nextLF);
      const index = isCR ? nextCR : nextLF;
      lines.push(this.#finishLine(chunk.subarray(start, index)));
      let next = index + 1;
      if (isCR) {
        if (next === length) this.#afterCR = true;
        else if (chunk[next] === LF) next++;
      }
      start = next;
      if (nextLF !== -1 && nextLF < start) nextLF = bytes.indexOf(LF, start);
      if (nextCR !== -1 && nextCR < start) nextCR = bytes.indexOf(CR, start);
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
