/** The highlighter: languages found by their usual fence names, output exactly the code given. */
import { describe, expect, it } from 'vitest';
import { createHighlighter, languageFor, segmentsFromHtml } from '../../src/render/highlight.js';
import { palette } from '../../src/render/style.js';

describe('highlighter', () => {
  const highlight = createHighlighter();

  it.each([
    ['js', 'javascript'],
    ['TS', 'typescript'],
    ['py', 'python'],
    ['sh', 'bash'],
    ['html', 'xml'],
    ['toml', 'ini'],
    ['rust', 'rust'],
    ['brainfuck', undefined],
  ])('fence name %s → %s', (name, language) => {
    expect(languageFor(name)).toBe(language);
  });

  it('keeps the text exactly, line by line, with styles for keywords, strings and comments', () => {
    const code = 'const a = "x < y & z"; // note\nif (a) {}';
    const lines = highlight(code, 'js');
    expect(lines?.map((line) => line.map((s) => s.text).join(''))).toEqual(code.split('\n'));
    expect(lines?.[0]).toContainEqual({ text: 'const', style: palette.code.keyword });
    expect(lines?.[0]).toContainEqual({ text: '"x < y & z"', style: palette.code.string });
    expect(lines?.[0]).toContainEqual({ text: '// note', style: palette.code.comment });
  });

  it('an unknown language is not highlighted', () => {
    expect(highlight('x', 'nosuchlang')).toBeUndefined();
  });

  it('a span open across lines styles both lines', () => {
    expect(segmentsFromHtml('<span class="hljs-comment">/* a\nb */</span>')).toEqual([[{ text: '/* a', style: palette.code.comment }], [{ text: 'b */', style: palette.code.comment }]]);
  });
});
