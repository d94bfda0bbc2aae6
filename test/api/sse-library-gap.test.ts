/**
 * Why svc parses SSE itself instead of using eventsource-parser (the well-kept choice): on cases
 * svc must handle, the library gives a different answer. If these start failing, the library has
 * caught up and src/api/sse/ could be replaced by it.
 */
import { createParser } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { SseDecoder } from '../../src/api/sse/decode.js';

function withLibrary(text: string): string[] {
  const data: string[] = [];
  const parser = createParser({ onEvent: (event) => data.push(event.data) });
  parser.feed(text);
  parser.reset({ consume: true }); // its documented way to flush at end of stream
  return data;
}

function withSvc(text: string): string[] {
  const decoder = new SseDecoder();
  return [...decoder.push(new TextEncoder().encode(text)), ...decoder.end()].map((event) => event.data);
}

describe('eventsource-parser 3 against the cases svc needs', () => {
  it('drops the last event when the stream ends without its blank line (svc keeps the end of the reply)', () => {
    for (const stream of ['data: a\n\ndata: last\n', 'data: a\r\rdata: last\r', 'data: a\n\ndata: last']) {
      expect(withLibrary(stream)).toEqual(['a']);
      expect(withSvc(stream)).toEqual(['a', 'last']);
    }
  });

  it('does not drop a leading byte order mark, so the first event is lost', () => {
    expect(withLibrary('\uFEFFdata: a\n\n')).toEqual([]);
    expect(withSvc('\uFEFFdata: a\n\n')).toEqual(['a']);
  });
});
