/**
 * The streaming renderer's central promise: however the text is cut into pieces, the screen it
 * leaves is the one the whole document gives at once, no row the cursor has left is ever written
 * again, and every row in the scrollback is already its final self while the text streams.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderPieces, renderWhole } from '../helpers/render.js';

// Lines chosen for their traps: markers cut anywhere, spans crossing row ends, links, fences
// cut after two backticks, tables, CRLF, wide characters, escapes, lone markers.
const LINES = [
  '# A heading with **bold** inside ##',
  '## Second level',
  'Plain words that go on long enough to wrap past the edge of a narrow terminal more than once.',
  'Some **bold text that runs on across the end of a row and further** then plain.',
  'An *emphasis* and a ***both*** and ~~struck~~ and `code span` here.',
  'Unclosed *opener at the start of a long line that keeps going well beyond the row',
  'snake_case_names and 2 * 3 * 4 and a*b*c stay as they are',
  'A [link with text](https://example.com/a_(b)) and [not a link] and [x].',
  'Escaped \\*stars\\* and \\`ticks\\` and a back\\slash.',
  'Wide: 日本語のテキストはここで折り返されます。 and emoji 🎉🎉 done',
  'averyveryveryverylongwordthatcannotfitonanyrowatallsoithastobebrokenintopieces end',
  '- a bullet item whose text is long enough to wrap under its own hanging indent',
  '  - nested bullet',
  '12. numbered item that is also long enough to wrap under its number',
  '> quoted text, long enough to wrap inside the quote bar at narrow widths',
  '> > nested quote',
  '---',
  '* * *',
  '```python',
  'def f(x):  # a comment',
  '    return "a string that is longer than a narrow terminal is wide, so it runs on"',
  '```',
  '``',
  '~~~',
  '| Name | Value |',
  '|---|--:|',
  '| alpha | **1** |',
  '| a much longer cell that has to wrap | 22 |',
  '| not a table',
  '',
  '',
  'Text with a tab\tinside and trailing spaces   ',
  'A line with a CR\r in the middle',
  'ESC \u001b[31m red? and BEL \u0007 and C1 \u009b',
  '[unfinished link](https://example.com',
  '`unclosed code span at the end',
];

const documents = fc
  .array(fc.constantFrom(...LINES), { minLength: 1, maxLength: 12 })
  .chain((lines) => fc.constantFrom(lines.join('\n'), `${lines.join('\r\n')}\r\n`, `${lines.join('\n')}\n`));

/** Cut `text` at the given fractions of its length (code units, so pairs may be split too). */
function cut(text: string, points: number[]): string[] {
  const at = [...new Set(points.map((p) => Math.floor(p * text.length)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let start = 0;
  for (const end of at) {
    pieces.push(text.slice(start, end));
    start = end;
  }
  pieces.push(text.slice(start));
  return pieces;
}

describe('streaming renderer: any cutting gives the screen of the whole', () => {
  it('random documents, random cuts, random widths, colour on and off', () => {
    fc.assert(
      fc.property(
        documents,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 40 }),
        fc.integer({ min: 12, max: 70 }),
        fc.boolean(),
        fc.boolean(),
        (doc, points, width, color, hyperlinks) => {
          const options = { width, color, hyperlinks };
          const whole = renderWhole(doc, options).styled();
          const final = whole.split('\n');
          const { screen } = renderPieces(cut(doc, points), {
            ...options,
            afterPiece: (partial) => {
              // The scrollback holds only finished rows.
              partial.history().forEach((row, i) => expect(row).toBe(final[i]));
            },
          });
          expect(screen.styled()).toBe(whole);
          expect(screen.rewrites).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('every document of the pool, one character at a time', () => {
    for (const width of [14, 33, 80]) {
      const doc = LINES.join('\n');
      const whole = renderWhole(doc, { width, hyperlinks: true }).styled();
      const final = whole.split('\n');
      const { screen } = renderPieces(Array.from(doc), {
        width,
        hyperlinks: true,
        afterPiece: (partial) => partial.history().forEach((row, i) => expect(row).toBe(final[i])),
      });
      expect(screen.styled()).toBe(whole);
      expect(screen.rewrites).toBe(0);
    }
  });
});
