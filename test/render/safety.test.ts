/**
 * Model text never reaches the terminal as an escape sequence, wherever it sits in the Markdown.
 * The test terminal throws on any sequence the renderer itself does not emit (and on an OSC 8
 * target with unsafe bytes), so rendering at all is half the proof; the visible stand-ins are
 * the other half.
 */
import { describe, expect, it } from 'vitest';
import { safeHyperlink } from '../../src/render/hyperlinks.js';
import { renderPieces } from '../helpers/render.js';

const ESC = '\u001b';
const attacks = {
  'prose': `hello ${ESC}]0;pwned\u0007 world`,
  'a heading': `# title ${ESC}[2J`,
  'inline code': `\`${ESC}[31mred\``,
  'a code block': `\`\`\`\n${ESC}]52;c;Y2xpcA==\u0007\n\`\`\``,
  "a code block's language": `\`\`\`py${ESC}]0;x\u0007\ncode\n\`\`\``,
  'a link text': `[click ${ESC}[8m](https://x.io)`,
  'a link URL': `[click](https://x.io/${ESC}]8;;https://evil${ESC}\\)`,
  'a table cell': `| a |\n|---|\n| ${ESC}[5mblink${ESC}\\ |`,
  'a table header': `| ${ESC}P+q |\n|---|\n| b |`,
  'a C1 control': 'a \u009b31m b \u009d0;x\u009c',
  'a bidi override': 'abc \u202Eevil\u202C def',
};

describe('neutralisation before styling', () => {
  it.each(Object.entries(attacks))('%s: shown as visible characters, never as a sequence', (_where, markdown) => {
    for (const pieces of [[markdown], Array.from(markdown)]) {
      for (const hyperlinks of [true, false]) {
        const { screen, bytes } = renderPieces(pieces, { width: 60, hyperlinks });
        // Every ESC in the output starts a sequence the renderer made: SGR, CSI K or OSC 8.
        const sequences = bytes.match(/\u001b(\[[0-9;]*[A-Za-z]|\]8;;[^\u001b]*\u001b\\|.)/g) ?? [];
        for (const sequence of sequences) expect(sequence).toMatch(/^\u001b(\[[0-9;]*[mK]|\]8;;(https?:\/\/[\x21-\x7e]*)?\u001b\\)$/);
        expect(bytes).not.toMatch(/[\u0007\u0080-\u009f\u202a-\u202e\u2066-\u2069]/);
        expect(screen.text()).toMatch(/␛|<U\+|␇/);
      }
    }
  });

  it('a hyperlink target is only ever printable ASCII http(s) or mailto', () => {
    expect(safeHyperlink('https://example.com/a?b=c#d')).toBe('https://example.com/a?b=c#d');
    expect(safeHyperlink('mailto:a@b.c')).toBe('mailto:a@b.c');
    expect(safeHyperlink('https://x.io/␛]8;;evil')).toBeUndefined();
    expect(safeHyperlink('https://x.io/a b')).toBeUndefined();
    expect(safeHyperlink('javascript:alert(1)')).toBeUndefined();
    expect(safeHyperlink('file:///etc/passwd')).toBeUndefined();
    expect(safeHyperlink(`https://x.io/${'a'.repeat(3000)}`)).toBeUndefined();
  });
});
