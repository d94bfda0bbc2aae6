/**
 * Bytes → lines, by the WHATWG server-sent events rules
 * (https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream):
 * a line ends at CRLF, LF or a lone CR, and one UTF-8 BOM at the very start is dropped.
 *
 * Each chunk is decoded whole by a streaming UTF-8 decoder (which carries a character split across
 * two chunks over to the next), and lines are cut from the text. That equals cutting on bytes
 * first, because CR and LF never occur inside a multi-byte UTF-8 sequence, and it is much cheaper:
 * one decode per network read instead of a Buffer view and a decode per line. A chunk of ASCII
 * alone (most of a stream: JSON escapes what is not) is its own text, byte for byte, and is taken
 * as Latin-1, much cheaper than the streaming decoder, whenever the decoder holds no part
 * of a character (bench/README.md, "ASCII read as Latin-1").
 *
 * A line that never ends is stopped at MAX_SSE_LINE_BYTES (limits.ts), counted in characters of
 * the decoded text (never more than its bytes), rather than held until memory runs out.
 */
import { isAscii } from 'node:buffer';
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
  // The decoder keeps every BOM; the one at the very start is dropped here (#startOf), the same
  // on every Node release, whose decoders disagree on a BOM split across chunks.
  readonly #decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /** The decoder may hold the start of a character: the next chunk must go through it. */
  #decoderHolds = false;
  /** No text has come yet: a BOM now is the stream's one BOM, not text. */
  #atStart = true;
  /** Text of the current line not yet ended. */
  #pending = '';
  /** The previous chunk ended in CR: an LF at the start of the next one belongs to it. */
  #afterCR = false;
  /** The current chunk's text, where reading it has got to, and its next LF and CR from there. */
  #text = '';
  #at = 0;
  #nextLF = -1;
  #nextCR = -1;

  /** Feed one chunk; returns the lines it completed. */
  push(chunk: Uint8Array): string[] {
    this.feed(chunk);
    return this.#rest();
  }

  /** End of stream: a last line without its line end still counts. */
  end(): string[] {
    this.#begin(this.#startOf(this.#decoder.decode()));
    const lines = this.#rest();
    if (this.#pending !== '') lines.push(this.#take(''));
    return lines;
  }

  /** Start reading one chunk, line by line with {@link next}. */
  feed(chunk: Uint8Array): void {
    this.#begin(this.#decode(chunk));
  }

  #decode(chunk: Uint8Array): string {
    if (!this.#decoderHolds && isAscii(chunk)) {
      return this.#startOf(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1'));
    }
    // A chunk ending in a byte below 0x80 ends on a whole character: nothing is held after it.
    this.#decoderHolds = chunk.length > 0 && chunk[chunk.length - 1]! >= 0x80;
    return this.#startOf(this.#decoder.decode(chunk, { stream: true }));
  }

  /** The text of a chunk, less the stream's BOM if this is its first text and it starts with one. */
  #startOf(text: string): string {
    if (!this.#atStart || text === '') return text;
    this.#atStart = false;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }

  /**
   * The next line the chunk completes, or undefined once the rest of it is a line not yet ended
   * (kept for the next chunk).
   */
  next(): string | undefined {
    const text = this.#text;
    const nextLF = this.#nextLF;
    const nextCR = this.#nextCR;
    if (nextLF === -1 && nextCR === -1) {
      this.#keepRest();
      return undefined;
    }
    const isCR = nextCR !== -1 && (nextLF === -1 || nextCR < nextLF);
    const index = isCR ? nextCR : nextLF;
    const line = this.#take(text.slice(this.#at, index));
    let next = index + 1;
    if (isCR) {
      if (next === text.length) this.#afterCR = true;
      else if (text.charCodeAt(next) === 0x0a) next++;
    }
    this.#moveTo(next);
    return line;
  }

  /** True at the start of a line: nothing of the current line read yet. */
  get atLineStart(): boolean {
    return this.#pending === '' && !this.#afterCR;
  }

  /** The current chunk's text, for a reader that takes whole lines itself (sse/decode.ts). */
  get text(): string {
    return this.#text;
  }

  /** Where reading the current chunk's text has got to. */
  get at(): number {
    return this.#at;
  }

  /** Go on from `at` (the start of a line) in the current chunk. */
  skipTo(at: number): void {
    this.#moveTo(at);
  }

  #begin(text: string): void {
    this.#text = text;
    this.#at = 0;
    if (this.#afterCR && text.length > 0) {
      if (text.charCodeAt(0) === 0x0a) this.#at = 1;
      this.#afterCR = false;
    }
    // indexOf (native) rather than a character loop; most streams have no CR at all, so its
    // search usually runs once per chunk.
    this.#nextLF = text.indexOf('\n', this.#at);
    this.#nextCR = text.indexOf('\r', this.#at);
  }

  #moveTo(at: number): void {
    this.#at = at;
    if (this.#nextLF !== -1 && this.#nextLF < at) this.#nextLF = this.#text.indexOf('\n', at);
    if (this.#nextCR !== -1 && this.#nextCR < at) this.#nextCR = this.#text.indexOf('\r', at);
  }

  #rest(): string[] {
    const lines: string[] = [];
    for (let line = this.next(); line !== undefined; line = this.next()) lines.push(line);
    return lines;
  }

  #keepRest(): void {
    if (this.#at < this.#text.length) {
      this.#pending += this.#text.slice(this.#at);
      this.#at = this.#text.length;
      if (this.#pending.length > MAX_SSE_LINE_BYTES) throw sseTooLong('a stream line');
    }
  }

  /** The current line, ended by `tail`: the pending text plus the tail. */
  #take(tail: string): string {
    if (this.#pending === '') return tail;
    const line = this.#pending + tail;
    this.#pending = '';
    return line;
  }
}
