/**
 * Lines → events, by the WHATWG server-sent events field rules. Only `data` and `event` matter
 * to svc; `id`, `retry` and unknown fields are ignored, as reconnection is not something a
 * one-shot completion can do.
 *
 * One field WHATWG does not name is read too: llama.cpp's server reports a failure inside a stream
 * as an `error:` line (`error: {"code":500,"message":"…","type":"server_error"}`), then
 * `data: [DONE]`. A WHATWG parser drops that line and the reply looks complete; svc dispatches
 * the event as an `error` event with that value as its data, whatever data lines came with it.
 *
 * The data of one event is bounded like a line (many data lines and no blank line would grow it
 * without end otherwise).
 */
import { MAX_SSE_LINE_BYTES } from '../limits.js';
import { sseTooLong } from './line-decoder.js';

export interface SseEvent {
  /** The `event:` name, `message` when none was given. */
  event: string;
  /** The `data:` lines joined with "\n". */
  data: string;
}

export class EventParser {
  /** The data lines so far, joined with "\n"; undefined until the event has a data line. */
  #data: string | undefined;
  #event = '';
  /** The value of an `error:` line (llama.cpp), which makes the event an error event. */
  #error: string | undefined;

  /** Feed one line; returns the event a blank line completes, if any. */
  line(line: string): SseEvent | undefined {
    if (line === '') return this.#dispatch();
    if (line.charCodeAt(0) === 0x3a) return undefined; // ":" starts a comment
    const colon = line.indexOf(':');
    // A line without a colon is a field whose value is empty.
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1); // one leading space is not part of the value
    // A string rather than an array to join: nearly every event has exactly one data line.
    if (field === 'data') {
      this.#data = this.#data === undefined ? value : `${this.#data}\n${value}`;
      if (this.#data.length > MAX_SSE_LINE_BYTES) throw sseTooLong('a stream event');
    } else if (field === 'event') this.#event = value;
    else if (field === 'error') {
      this.#error = this.#error === undefined ? value : `${this.#error}\n${value}`;
      if (this.#error.length > MAX_SSE_LINE_BYTES) throw sseTooLong('a stream event');
    }
    return undefined;
  }

  /** True between events: no field of the next event has come yet. */
  get idle(): boolean {
    return this.#data === undefined && this.#event === '' && this.#error === undefined;
  }

  /**
   * End of stream. WHATWG discards an event not closed by a blank line; svc dispatches it, since
   * many servers end their last event with a single newline and its data is the end of the reply.
   */
  end(): SseEvent | undefined {
    return this.#dispatch();
  }

  #dispatch(): SseEvent | undefined {
    const data = this.#data;
    const event = this.#event || 'message';
    const error = this.#error;
    this.#data = undefined;
    this.#event = '';
    this.#error = undefined;
    if (error !== undefined) return { event: 'error', data: error };
    // An event with no data line at all is not dispatched (WHATWG: empty data buffer).
    return data === undefined ? undefined : { event, data };
  }
}
