/**
 * What the renderer draws, case by case. Every case is rendered whole and one character at a
 * time, and both must leave the same screen (chunking.property.test.ts does random cuts).
 */
import { describe, expect, it } from 'vitest';
import { createStreamingRenderer } from '../../src/render/streaming-renderer.js';
import { renderByChar, renderPieces, renderWhole, type RenderOptions } from '../helpers/render.js';
import { TerminalScreen } from '../helpers/terminal-screen.js';

/** Render whole and by character; check they agree, return the whole one. */
function render(markdown: string, options: RenderOptions = {}): TerminalScreen {
  const whole = renderWhole(markdown, options);
  expect(renderByChar(markdown, options).styled()).toBe(whole.styled());
  return whole;
}

describe('what is shown', () => {
  it.each([
    ['markers of strong, emphasis, strike and code are gone', 'a **b** *c* ~~d~~ `e` f', 40, 'a b c d e f'],
    ['a heading loses its # marks, opening and closing', '## Title ##', 40, 'Title'],
    ['a # inside a heading stays', '# C# and F#', 40, 'C# and F#'],
    ['a bullet item wraps under its own text', '- one two three four five six', 20, '• one two three four\n  five six'],
    ['a nested bullet keeps its indent', '- a\n  - b', 20, '• a\n  ◦ b'],
    ['a numbered item wraps under its text', '10. alpha beta gamma delta epsilon', 20, '10. alpha beta gamma\n    delta epsilon'],
    ['a quote wraps inside its bar', '> alpha beta gamma delta epsilon', 20, '│ alpha beta gamma\n│ delta epsilon'],
    ['nested quotes', '> a\n> > b', 20, '│ a\n│ │ b'],
    ['words are never split at the edge', 'If you compare these', 10, 'If you\ncompare\nthese'],
    ['a word longer than the row is the only thing broken', 'abcdefghijklmnop qr', 10, 'abcdefghij\nklmnop qr'],
    ['a horizontal rule spans the row', 'x\n\n---', 10, 'x\n\n──────────'],
    ['blank lines between paragraphs stay', 'one\n\ntwo', 10, 'one\n\ntwo'],
    ['an unclosed opener on the last row is shown as typed', 'use *args and more', 40, 'use *args and more'],
    ['snake_case, arithmetic and intraword stars are text', 'snake_case_name 2 * 3 a*b', 40, 'snake_case_name 2 * 3 a*b'],
    ['escaped markers are shown without the backslash', '\\*not\\* \\`code\\`', 40, '*not* `code`'],
    ['a bracket that is not a link keeps its brackets', '- [x] done [1]', 40, '• [x] done [1]'],
    ['a link shows its text and its URL', 'see [the docs](https://x.io/a) now', 40, 'see the docs (https://x.io/a) now'],
    ['a [ that opens nothing keeps its bracket when the line wraps past it', 'use arr[0 to get the first element from the list', 20, 'use arr[0 to get the\nfirst element from\nthe list'],
    ['a [ closed by ] with no ( keeps both, past a wrap', 'x [a b c d e f g] h', 10, 'x [a b c d\ne f g] h'],
    ['a link whose text wraps is still a link', 'see [the official documentation of it](https://x.io/a) now', 20, 'see the official\ndocumentation of it\n(https://x.io/a) now'],
    ['a literal [ before a link leaves the link whole', 'x [b [c](http://x) d', 40, 'x [b c (http://x) d'],
    ['CRLF line ends are line ends', 'a\r\nb\r\n', 10, 'a\nb'],
    ['fences are hidden, the language shown once, code kept exactly', '```python\nx = 1\n  if y:\n```\nafter', 40, 'python\nx = 1\n  if y:\nafter'],
    ['a fence without a language leaves no row', 'before\n```\ncode\n```\nafter', 40, 'before\ncode\nafter'],
    ['tabs in code go to the next tab stop', '```\na\tb\n```', 40, 'a       b'],
    ['a code line wider than the screen runs past the edge unchanged', '```\n0123456789abcdef\n```', 10, '0123456789\nabcdef'],
    ['a table is as wide as its content, aligned, not stretched to the terminal', '| a | b |\n|---|--:|\n| 1 | 22 |', 20, 'a   │   b\n────┼────\n1   │  22'],
    ['a table wider than the terminal shrinks its columns in proportion; a long cell wraps inside', '| k | v |\n|---|---|\n| x | one two three |', 16, 'k   │ v\n────┼───────────\nx   │ one two\n    │ three'],
    ['a | line not followed by a delimiter row is text', '| not a table\nnext', 40, '| not a table\nnext'],
  ])('%s', (_name, markdown, width, expected) => {
    expect(render(markdown, { width }).text()).toBe(expected);
  });

  it('a table in a window narrower than three columns of three: narrower columns, still inside the window', () => {
    const table = '| name | value | note |\n|---|---|---|\n| alpha | 1 | first one |';
    for (const width of [14, 11, 9]) {
      const rows = render(table, { width }).text().split('\n');
      // The test terminal wraps as a real one does: a row past the edge would leave a piece of it,
      // without the column separators, on a row of its own.
      expect(rows.every((row) => (row.match(/[│┼]/g) ?? []).length === 2), `width ${width}:\n${rows.join('\n')}`).toBe(true);
      // Nothing lost: the cells' letters are all there, only wrapped.
      expect(rows.join('').replace(/[\s│─┼]/g, '')).toHaveLength('namevaluenotealpha1firstone'.length);
    }
  });

  it('styles: bold, italic, strike, inline code colour, heading colour', () => {
    const screen = render('# Head\na **b** *c* ~~d~~ `e`', { width: 40 });
    expect(screen.textWith(0, '1')).toBe('Head');
    expect(screen.textWith(0, '35')).toBe('Head');
    expect(screen.textWith(1, '1')).toBe('b');
    expect(screen.textWith(1, '3')).toBe('c');
    expect(screen.textWith(1, '9')).toBe('d');
    expect(screen.textWith(1, '36')).toBe('e');
  });

  it('a span that crosses the end of a row stays styled on both rows', () => {
    const screen = render('**one two three four**', { width: 10 });
    expect(screen.text()).toBe('one two\nthree four');
    expect(screen.textWith(0, '1')).toBe('one two');
    expect(screen.textWith(1, '1')).toBe('three four');
  });

  it('an opener on a row already finished keeps its style to the end of the line', () => {
    // The opener cannot be taken back without redrawing a finished row: it styles the line.
    const screen = render('**one two three four', { width: 10 });
    expect(screen.text()).toBe('one two\nthree four');
    expect(screen.textWith(1, '1')).toBe('three four');
  });

  it('code is highlighted once its line is complete', () => {
    const screen = render('```python\ndef f():\n    return "s"\n```', { width: 40 });
    expect(screen.textWith(0, '2')).toBe('python');
    expect(screen.textWith(1, '35')).toBe('def');
    expect(screen.textWith(2, '32')).toBe('"s"');
  });

  it('a table header is bold and its borders dim', () => {
    const screen = render('| Name | Age |\n|---|---|\n| Al | 3 |', { width: 30 });
    expect(screen.textWith(0, '1')).toBe('NameAge');
    expect(screen.textWith(1, '2')).toMatch(/^─+┼─+$/);
  });

  it('links are OSC 8 hyperlinks when the terminal has them', () => {
    const screen = render('see [docs](https://x.io/a)', { width: 40, hyperlinks: true });
    const row = screen.rows[0] ?? [];
    expect(row.filter((c) => c.link === 'https://x.io/a').map((c) => c.char).join('')).toBe('docs(https://x.io/a)');
    expect(render('see [docs](https://x.io/a)', { width: 40, hyperlinks: false }).styled()).not.toContain('https://x.io/a}');
  });
});

describe('NO_COLOR', () => {
  it('no colour at all, bold and italic stay, code spans keep their backticks', () => {
    const { screen, bytes } = renderPieces(['# H\n`code` **b** *i*\n```py\nx = 1\n```\n'], { width: 40, color: false });
    expect(screen.text()).toBe('H\n`code` b i\npy\nx = 1');
    expect(bytes).not.toMatch(/\u001b\[[0-9;]*3[0-7][;m]/);
    expect(screen.textWith(1, '1')).toBe('b');
    expect(screen.textWith(1, '3')).toBe('i');
  });
});

describe('streaming', () => {
  /** The text of the screen after each piece. */
  function frames(pieces: string[], width = 40): string[] {
    const seen: string[] = [];
    renderPieces(pieces, { width, afterPiece: (screen) => seen.push(screen.text()) });
    return seen;
  }

  it('words appear as they arrive, styled before their closing marker comes', () => {
    expect(frames(['Some **bol', 'd te', 'xt** end'])).toEqual(['Some bol', 'Some bold te', 'Some bold text end']);
  });

  it('only marker characters are held back: a list marker until its space, a fence until its line ends', () => {
    expect(frames(['-', ' item', ' two'])).toEqual(['', '• item', '• item two']);
    expect(frames(['``', '`py', '\nx', ' = 1\n', '``', '`\n'])).toEqual(['', '', 'py\nx', 'py\nx = 1', 'py\nx = 1', 'py\nx = 1']);
  });

  it('markers cut across pieces render as if whole', () => {
    expect(renderPieces(['*', '*bo', 'ld*', '*'], { width: 20 }).screen.styled()).toBe(renderWhole('**bold**', { width: 20 }).styled());
  });

  it('a table row shows its raw text dimmed while it arrives; the table is drawn aligned once it ends', () => {
    const seen: string[] = [];
    const { screen } = renderPieces(['| a | b |\n|---|---|\n| 1 | 2', ' |\n'], { width: 20, afterPiece: (shown) => seen.push(shown.styled()) });
    expect(seen[0]?.split('\n').at(-1)).toBe('{2|}| 1 | 2');
    // Held until the table ends (its widths come from all its rows): still the preview.
    expect(seen[1]?.split('\n').at(-1)).toBe('{2|}| 1 | 2');
    expect(screen.styled()).toBe('{1|}a{|}  {2|} │ {1|}b\n{2|}────┼────\n{|}1  {2|} │ {|}2');
  });

  it('a table longer than the rows held is laid out from those and the rest streams under them', () => {
    const rows = Array.from({ length: 45 }, (_, i) => `| r${i} | ${i === 44 ? 'a much longer cell at the end' : 'x'} |`).join('\n');
    const text = renderWhole(`| k | v |\n|---|---|\n${rows}\n`, { width: 60 }).text().split('\n');
    // The widths were fixed before the long cell came: it wraps in the column the first rows made.
    expect(text[1]).toBe('────┼────');
    expect(text.at(-1)?.startsWith('    ')).toBe(true);
  });

  it('one write per piece (and one at the end), nothing written again for text that only extends the row', () => {
    const { bytes, writes } = renderPieces(['one ', 'two ', 'three'], { width: 40 });
    expect(writes).toBe(4);
    expect(bytes).toBe('one two three\n');
  });

  it('reads the width again at the start of each line (after SIGWINCH)', () => {
    let columns = 40;
    const screen = new TerminalScreen(40);
    const renderer = createStreamingRenderer({ columns: () => columns, color: true, hyperlinks: false, write: (bytes) => screen.write(bytes) });
    renderer.push('alpha beta gamma delta\n\n');
    columns = 12;
    renderer.push('alpha beta gamma delta\n');
    renderer.end();
    expect(screen.text()).toBe('alpha beta gamma delta\n\nalpha beta\ngamma delta');
  });

  it('a resize while a paragraph streams: the row being written and the rest wrap at the new width, no word split', () => {
    let columns = 30;
    const screen = new TerminalScreen(30);
    const renderer = createStreamingRenderer({ columns: () => columns, color: true, hyperlinks: false, write: (bytes) => screen.write(bytes) });
    renderer.push('alpha beta gamma delta epsilon zeta ');
    columns = 12;
    screen.resize(12, false);
    renderer.push('eta theta iota kappa lambda mu and more words to wrap\n');
    renderer.end();
    const rows = screen.text().split('\n');
    // The row finished before the resize stays as it was drawn (this terminal cut it at its new
    // edge); the row being written was drawn again at 12 columns, and so was everything after it.
    expect(rows).toEqual(['alpha beta g', 'zeta eta', 'theta iota', 'kappa lambda', 'mu and more', 'words to', 'wrap']);
    expect(screen.rewrites).toBe(0);
  });

  it('setext headings (issue 26, item 3): a one-row line underlined with = or - is a heading, not a rule', () => {
    for (const [doc, same] of [['Title\n=====\n\nbody', '# Title\n\nbody'], ['Sub\n---\nbody', '## Sub\nbody'], ['Sub\n  -\n', '## Sub\n']] as const) {
      expect(renderWhole(doc, { width: 40 }).styled(), doc).toBe(renderWhole(same, { width: 40 }).styled());
      // Streamed a character at a time: the same screen, and no row drawn twice.
      const { screen } = renderPieces([...doc], { width: 40 });
      expect(screen.styled()).toBe(renderWhole(same, { width: 40 }).styled());
      expect(screen.rewrites).toBe(0);
    }
  });

  it('not a setext heading: after a blank line, after a second paragraph line, or a line wider than a row', () => {
    const rule = renderWhole('---', { width: 20 }).styled();
    expect(renderWhole('Title\n\n---', { width: 20 }).styled().endsWith(rule)).toBe(true);
    expect(renderWhole('one\ntwo\n---', { width: 20 }).styled().endsWith(rule)).toBe(true);
    expect(renderWhole('a line far too long for one row\n---', { width: 20 }).styled().endsWith(rule)).toBe(true);
    expect(renderWhole('Title\n=x', { width: 20 }).text()).toBe('Title\n=x');
  });

  it('end() finishes a last line without a newline and leaves the terminal unstyled', () => {
    const { bytes } = renderPieces(['**one two three four'], { width: 10 });
    expect(bytes).toMatch(/four\u001b\[0m\n$/);
  });
});
