import { EventParser, type SseEvent } from './event-parser.js';
import { LineDecoder } from './line-decoder.js';

/**
 * A reader of whole events straight from the text, ahead of the line-by-line parse: given the
 * text and a position at the start of an event, it adds what it read of the events there to
 * `into` (as values of its own kind) and returns where they end (`at` itself when it took none).
 * sse/repeat-chunks.ts is one.
 */
export interface EventShortcut<Read> {
  take(text: string, at: number, into: Array<SseEvent | Read>): number;
  /** The same for an event cut into lines the usual way: its value, or undefined if it is not one it reads. */
  read(event: SseEvent): Read | undefined;
}

/** A push parser for a whole stream: bytes in, events out. Synchronous, so it is cheap per chunk. */
export class SseDecoder<Read = never> {
  readonly #lines = new LineDecoder();
  readonly #events = new EventParser();

  /**
   * With a shortcut, the events it recognises are handed out as their text without being cut
   * into lines and fields, which would otherwise be most of the work on a long stream (bench/README.md).
   */
  constructor(private readonly shortcut?: EventShortcut<Read>) {}

  push(chunk: Uint8Array): Array<SseEvent | Read> {
    this.#lines.feed(chunk);
    const items: Array<SseEvent | Read> = [];
    // The shortcut knows the stream as it was before this chunk. Once an event it does not read
    // is handed out, whoever reads the events may learn from it, so the shortcut waits for the
    // next chunk.
    let shortcut = this.shortcut;
    for (;;) {
      if (shortcut !== undefined && this.#events.idle && this.#lines.atLineStart) {
        const at = this.#lines.at;
        const after = shortcut.take(this.#lines.text, at, items);
        if (after !== at) this.#lines.skipTo(after);
      }
      const line = this.#lines.next();
      if (line === undefined) return items;
      const event = this.#events.line(line);
      if (event && !this.#add(event, items, shortcut)) shortcut = undefined;
    }
  }

  end(): Array<SseEvent | Read> {
    const items: Array<SseEvent | Read> = [];
    let shortcut = this.shortcut;
    for (const line of this.#lines.end()) {
      const event = this.#events.line(line);
      if (event && !this.#add(event, items, shortcut)) shortcut = undefined;
    }
    const last = this.#events.end();
    if (last) this.#add(last, items, shortcut);
    return items;
  }

  /** Add the event, as the shortcut reads it when it can; false when it could not. */
  #add(event: SseEvent, items: Array<SseEvent | Read>, shortcut: EventShortcut<Read> | undefined): boolean {
    const read = shortcut?.read(event);
    items.push(read === undefined ? event : read);
    return read !== undefined;
  }
}
