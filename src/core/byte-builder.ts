/**
 * Bytes gathered piece by piece in one growing buffer, outside the JavaScript heap: thousands of
 * small strings kept until the end are what the garbage collector moves again and again, and a
 * buffer is what it never looks into (the listing cache's rows, written by a first listing of
 * thousands of conversations: bench/README.md, "svc sessions list").
 */
export class ByteBuilder {
  #bytes: Buffer;
  #length = 0;

  constructor(initialSize = 64 * 1024) {
    this.#bytes = Buffer.allocUnsafe(initialSize);
  }

  get length(): number {
    return this.#length;
  }

  /** Add `text` as UTF-8; returns where it starts. */
  append(text: string): number {
    const start = this.#length;
    this.#reserve(Buffer.byteLength(text));
    this.#length += this.#bytes.write(text, start);
    return start;
  }

  /** Add `bytes[start, end)` of another buffer. */
  appendBytes(bytes: Buffer, start: number, end: number): void {
    this.#reserve(end - start);
    this.#length += bytes.copy(this.#bytes, this.#length, start, end);
  }

  /** Where `byte` next occurs from `start` on, or -1. */
  indexOf(byte: number, start: number): number {
    const at = this.#bytes.indexOf(byte, start);
    return at < this.#length ? at : -1;
  }

  /** The bytes gathered so far (a view, valid until the next append). */
  view(start = 0, end = this.#length): Buffer {
    return this.#bytes.subarray(start, Math.min(end, this.#length));
  }

  #reserve(size: number): void {
    if (this.#length + size <= this.#bytes.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.#bytes.length * 2, this.#length + size));
    this.#bytes.copy(bigger, 0, 0, this.#length);
    this.#bytes = bigger;
  }
}
