/**
 * Property tests of the SSE layer (fast-check): however a byte stream is split, the events are
 * the same; arbitrary bytes never throw and always finish; every mix of CR, LF and CRLF splits
 * lines the same way.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseDecoder } from '../../src/api/sse/decode.js';
import type { SseEvent } from '../../src/api/sse/event-parser.js';
import { LineDecoder } from '../../src/api/sse/line-decoder.js';

function decode(chunks: Uint8Array[]): SseEvent[] {
  const decoder = new SseDecoder();
  return [...chunks.flatMap((chunk) => decoder.push(chunk)), ...decoder.end()];
}

/** Cut `bytes` at the given offsets (any order, duplicates allowed). */
function cut(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((offset) => offset % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    pieces.push(bytes.slice(start, point));
    start = point;
  }
  return pieces;
}

const lineEnd = fc.constantFrom('\n', '\r', '\r\n');
const fieldLine = fc.oneof(
  fc.string().map((text) => `data: ${text.replace(/[\r\n]/g, '')}`),
  fc.string().map((text) => `data:${text.replace(/[\r\n]/g, '')}`),
  fc.constantFrom('event: error', 'event: message', ': comment', 'id: 1', 'retry: 5', 'data', ''),
);
const sseText = fc.array(fc.tuple(fieldLine, lineEnd), { maxLength: 30 }).map((lines) => lines.map(([line, end]) => line + end).join(''));

describe('SSE properties', () => {
  it('any split of a stream gives the same events as the whole stream', () => {
    fc.assert(
      fc.property(sseText, fc.array(fc.nat(), { maxLength: 12 }), (text, offsets) => {
        const bytes = new TextEncoder().encode(text);
        expect(decode(cut(bytes, offsets))).toEqual(decode([bytes]));
      }),
      { numRuns: 500 },
    );
  });

  it('arbitrary bytes, split anywhere, never throw and always end', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.array(fc.nat(), { maxLength: 8 }), (bytes, offsets) => {
        const events = decode(cut(bytes, offsets));
        expect(Array.isArray(events)).toBe(true);
        for (const event of events) expect(typeof event.data).toBe('string');
      }),
      { numRuns: 500 },
    );
  });

  it('every mix of CR, LF and CRLF splits lines as a reference splitter does', () => {
    const line = fc.string().map((text) => text.replace(/[\r\n]/g, ''));
    fc.assert(
      fc.property(fc.array(fc.tuple(line, lineEnd), { minLength: 1, maxLength: 20 }), fc.array(fc.nat(), { maxLength: 10 }), (parts, offsets) => {
        const text = parts.map(([content, end]) => content + end).join('');
        const decoder = new LineDecoder();
        const bytes = new TextEncoder().encode(text);
        const lines = [...cut(bytes, offsets).flatMap((piece) => decoder.push(piece)), ...decoder.end()];
        // The reference: WHATWG's rule as one regular expression (a CR then an LF is one end).
        const expected = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/).slice(0, -1);
        expect(lines).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('any bytes (ASCII runs, other characters, byte order marks, broken UTF-8), split anywhere, give the lines of the whole stream decoded at once', () => {
    const encode = (text: string) => new TextEncoder().encode(text);
    const piece = fc.oneof(
      fc.string({ maxLength: 20 }).map(encode),
      fc.string({ unit: 'binary', maxLength: 8 }).map(encode),
      fc.constantFrom(encode('\n'), encode('\r'), encode('\r\n'), Uint8Array.of(0xef, 0xbb, 0xbf)),
      fc.uint8Array({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), fc.array(fc.nat(), { maxLength: 10 }), (pieces, offsets) => {
        const bytes = Uint8Array.from(pieces.flatMap((part) => [...part]));
        const decoder = new LineDecoder();
        const lines = [...cut(bytes, offsets).flatMap((part) => decoder.push(part)), ...decoder.end()];
        // The reference: the whole stream through one decoder (one leading BOM dropped, broken
        // sequences as U+FFFD), cut by WHATWG's line rule; a last line without its end counts.
        const expected = new TextDecoder().decode(bytes).split(/\r\n|\r|\n/);
        if (expected.at(-1) === '') expected.pop();
        expect(lines).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });
});
