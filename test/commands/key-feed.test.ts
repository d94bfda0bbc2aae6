import { describe, expect, it } from 'vitest';
import { filterPaste, KeyFeed, PASTE_END, PASTE_START, PASTED_NEWLINE, splitInput } from '../../src/commands/chat/interactive/key-feed.js';

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

  it('a paste split across reads, marker included, comes out whole', () => {
    const { feed, inputs } = recorded();
    const input = `${PASTE_START}line 1\nline 2${PASTE_END}\r`;
    for (const piece of [input.slice(0, 3), input.slice(3, 12), input.slice(12, 20), input.slice(20)]) feed.take(piece);
    expect(inputs.at(-1)).toBe('key:\r');
    expect(inputs.slice(0, -1).every((input) => input.startsWith('text:'))).toBe(true);
    expect(inputs.slice(0, -1).map((input) => input.slice('text:'.length)).join('')).toBe(`line 1${N}line 2`);
  });

  it('while busy, Ctrl-C is taken out of the input and reported', () => {
    const { feed, inputs } = recorded();
    let interrupts = 0;
    feed.onInterrupt = () => (interrupts += 1);
    feed.take('ab\u0003cd');
    feed.onInterrupt = undefined;
    feed.take('\u0003');
    expect(interrupts).toBe(1);
    expect(inputs).toEqual(['text:abcd', 'key:\u0003']);
  });

  it('keys one by one, escape sequences whole, printable runs and pastes in one piece', () => {
    const { feed, inputs } = recorded();
    feed.take(`ab\u001b[1;5Cc\u001bbé${PASTE_START}x\ny${PASTE_END}\u001bOH\u001b\u001b[D😀\r`);
    expect(inputs).toEqual(['text:ab', 'key:\u001b[1;5C', 'text:c', 'key:\u001bb', `text:éx${N}y`, 'key:\u001bOH', 'key:\u001b\u001b[D', 'text:😀', 'key:\r']);
  });

  it('what comes while paused waits, in order, and goes on after resume once the prompt is drawn', async () => {
    const { feed, inputs } = recorded();
    feed.pause();
    feed.take('one\r');
    feed.take('\u001b[Atwo');
    expect(inputs).toEqual([]);
    feed.resume();
    expect(inputs).toEqual([]);
    await new Promise((resolve) => process.nextTick(resolve));
    expect(inputs).toEqual(['text:one', 'key:\r', 'key:\u001b[A', 'text:two']);
  });

  it('a key that pauses readline (Enter ending a line) holds back what follows it', async () => {
    const { feed, inputs } = recorded();
    feed.on('data', (key: string) => {
      if (key === '\r') feed.pause();
    });
    feed.take('first\rsecond');
    expect(inputs).toEqual(['text:first', 'key:\r']);
    feed.resume();
    await new Promise((resolve) => process.nextTick(resolve));
    expect(inputs).toEqual(['text:first', 'key:\r', 'text:second']);
  });
});

/** A feed whose inputs are recorded as `text:…` and `key:…`. */
function recorded(): { feed: KeyFeed; inputs: string[] } {
  const feed = new KeyFeed();
  const inputs: string[] = [];
  feed.insert = (text) => inputs.push(`text:${text}`);
  feed.on('data', (key: string) => inputs.push(`key:${key}`));
  return { feed, inputs };
}

describe('splitInput', () => {
  it('joined again, the pieces are the text; a sequence cut at the end stays as far as it goes', () => {
    const join = (text: string) => splitInput(text).map((piece) => ('text' in piece ? piece.text : piece.key)).join('');
    for (const text of ['', 'plain', '\u001b[', 'x\u001b', '\u001b[2', '\u001bO', '\r\n\t\u0003', 'a\u001b[200~b', 'a\u0085b\u007f']) {
      expect(join(text)).toBe(text);
    }
    expect(splitInput('x\u001b[2')).toEqual([{ text: 'x' }, { key: '\u001b[2' }]);
  });
});
