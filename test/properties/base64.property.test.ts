/** Property tests of the streaming base64 decoder (its fast check is subtle: keep it honest). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Base64Decoder } from '../../src/api/images/base64-decoder.js';

function decodeInPieces(text: string, offsets: number[]): Buffer {
  const points = [...new Set(offsets.map((offset) => offset % (text.length + 1)))].sort((a, b) => a - b);
  const decoder = new Base64Decoder();
  const out: Buffer[] = [];
  let start = 0;
  for (const point of [...points, text.length]) {
    out.push(decoder.push(text.slice(start, point)));
    start = point;
  }
  out.push(decoder.end());
  return Buffer.concat(out);
}

/** Insert `insert` characters at the given positions of `text`. */
function sprinkle(text: string, places: Array<[number, string]>): string {
  let result = text;
  for (const [at, char] of places) {
    const index = at % (result.length + 1);
    result = result.slice(0, index) + char + result.slice(index);
  }
  return result;
}

describe('Base64Decoder properties', () => {
  it('any bytes, with whitespace anywhere and split anywhere, decode back to themselves', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(' ', '\n', '\r', '\t')), { maxLength: 10 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (bytes, spaces, offsets) => {
          const text = sprinkle(Buffer.from(bytes).toString('base64'), spaces);
          expect(decodeInPieces(text, offsets).equals(Buffer.from(bytes))).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('a character outside base64 anywhere is always refused', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 200 }),
        fc.nat(),
        fc.constantFrom('*', '!', '.', '@', '#', '$', '%', '\u0000', 'é', '"', '\\'),
        fc.array(fc.nat(), { maxLength: 6 }),
        (bytes, at, junk, offsets) => {
          const text = sprinkle(Buffer.from(bytes).toString('base64'), [[at, junk]]);
          expect(() => decodeInPieces(text, offsets)).toThrow('not valid base64');
        },
      ),
      { numRuns: 1000 },
    );
  });
});
