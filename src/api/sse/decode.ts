import { EventParser, type SseEvent } from './event-parser.js';
import { LineDecoder } from './line-decoder.js';

/** A push parser for a whole stream: bytes in, events out. Synchronous, so it is cheap per chunk. */
export class SseDecoder {
  readonly #lines = new LineDecoder();
  readonly #events = new EventParser();

  push(chunk: Uint8Array): SseEvent[] {
    return this.#collect(this.#lines.push(chunk), false);
  }

  end(): SseEvent[] {
    return this.#collect(this.#lines.end(), true);
  }

  #collect(lines: string[], atEnd: boolean): SseEvent[] {
    const events: SseEvent[] = [];
    for (const line of lines) {
      const event = this.#events.line(line);
      if (event) events.push(event);
    }
    if (atEnd) {
      const last = this.#events.end();
      if (last) events.push(last);
    }
    return events;
  }
}
