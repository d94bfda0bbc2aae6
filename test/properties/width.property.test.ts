/**
 * The display width of text (src/terminal/width.ts): counting printable ASCII in place gives the
 * same width as measuring every code point on its own, for any text (astral characters, lone
 * surrogates, combining marks, wide characters, zero-width ones).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codePointWidth, cutToColumns, textWidth } from '../../src/terminal/width.js';

const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ maxLength: 40 }).map((text) => `${text}…`),
  fc.array(fc.constantFrom('a', 'é', 'e\u0301', '漢', '😀', '\u200b', '\ufe0f', '\ud800', ' '), { maxLength: 30 }).map((parts) => parts.join('')),
);

describe('text width', () => {
  it('is the sum of the widths of its code points', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        let reference = 0;
        for (const char of text) reference += codePointWidth(char);
        expect(textWidth(text)).toBe(reference);
      }),
      { numRuns: 2000 },
    );
  });

  it('a cut text fits its columns and starts the text', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 2, max: 50 }), (text, columns) => {
        const cut = cutToColumns(text, columns);
        expect(textWidth(cut)).toBeLessThanOrEqual(columns);
        if (cut !== text) expect(text.startsWith(cut.slice(0, -1))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
