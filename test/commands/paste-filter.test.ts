import { describe, expect, it } from 'vitest';
import { filterPaste, PASTE_END, PASTE_START, PASTED_NEWLINE, PasteFilter, splitKeys } from '../../src/commands/chat/interactive/paste-filter.js';

const N = PASTED_NEWLINE;

describe('filterPaste', () => {
  it.each([
    ['typing passes through', 'abc\r', false, { out: 'abc\r', pasting: false, held: '' }],
    ['a paste keeps its newlines as stand-ins', `${PASTE_START}a\nb\r\nc\rd${PASTE_END}\r`, false, { out: `a${N}b${N}c${N}d\r`, pasting: false, held: '' }],
    ['a paste still open at the end of a read', `${PASTE_START}a\nb`, false, { out: `a${N}b`, pasting: true, held: '' }],
    ['the rest of an open paste', `c\nd${PASTE_END}x`, true, { out: `c${N}dx`, pasting: false, held: '' }],
    ['a marker cut in two is held back', `ab\u001b[20`, false, { out: 'ab', pasting: false, held: '\u001b[20' }],
    ['an arrow key is not held back', 'a\u001b[A', false, { out: 'a\u001b[A', pasting: false, held: '' }],
  ])('%s', (_name, input, pasting, expected) => {
    expect(filterPaste(input, pasting)).toEqual(expected);
  });

  it('as a stream: a paste split across reads, marker included, comes out whole', async () => {
    const filter = new PasteFilter();
    let out = '';
    filter.on('data', (text: string) => (out += text));
    const input = `${PASTE_START}line 1\nline 2${PASTE_END}\r`;
    for (const piece of [input.slice(0, 3), input.slice(3, 12), input.slice(12, 20), input.slice(20)]) filter.write(piece);
    filter.end();
    await new Promise((resolve) => filter.on('end', resolve));
    expect(out).toBe(`line 1${N}line 2\r`);
  });

  it('while busy, Ctrl-C is taken out of the input and reported', async () => {
    const filter = new PasteFilter();
    let interrupts = 0;
    filter.onInterrupt = () => (interrupts += 1);
    let out = '';
    filter.on('data', (text: string) => (out += text));
    filter.write('ab\u0003cd');
    filter.onInterrupt = undefined;
    filter.write('\u0003');
    filter.end();
    await new Promise((resolve) => filter.on('end', resolve));
    expect(interrupts).toBe(1);
    expect(out).toBe('abcd\u0003');
  });

  it('hands readline one key a read: characters alone, escape sequences whole, even when read ahead', async () => {
    const filter = new PasteFilter();
    filter.pause();
    filter.write(`ab\u001b[1;5Cc\u001bbé${PASTE_START}x\ny${PASTE_END}\u001bOH\u001b\u001b[D😀`);
    const reads: string[] = [];
    filter.on('data', (key: string) => reads.push(key));
    filter.resume();
    filter.end();
    await new Promise((resolve) => filter.on('end', resolve));
    expect(reads).toEqual(['a', 'b', '\u001b[1;5C', 'c', '\u001bb', 'é', 'x', N, 'y', '\u001bOH', '\u001b\u001b[D', '😀']);
  });
});

describe('splitKeys', () => {
  it('joined again, the keys are the text; a sequence cut at the end stays as far as it goes', () => {
    for (const text of ['', 'plain', '\u001b[', 'x\u001b', '\u001b[2', '\u001bO', '\r\n\t\u0003', 'a\u001b[200~b']) {
      expect(splitKeys(text).join('')).toBe(text);
    }
    expect(splitKeys('x\u001b[2')).toEqual(['x', '\u001b[2']);
  });
});
