/** Files in a message: fenced so nothing inside can break out, in order, and found again for /history. */
import { describe, expect, it } from 'vitest';
import { composeMessage, fencedFile, fenceFor, summariseMessage } from '../../src/attachments/message.js';

const file = (name: string, text: string) => ({ name, path: `/x/${name}`, text, bytes: Buffer.byteLength(text) });

describe('fenceFor', () => {
  it.each([
    ['plain text', '```'],
    ['a `tick` and ``two``', '```'],
    ['```js\ncode\n```', '````'],
    ['``````` seven', '````````'],
  ])('%j → %s', (text, fence) => {
    expect(fenceFor(text)).toBe(fence);
  });

  it('gives a block whose closing fence no line of the file can match', () => {
    const inner = 'before\n````\nnot the end\n```\nafter';
    const block = fencedFile({ name: 'notes.md', text: inner });
    const lines = block.split('\n');
    expect(lines[0]).toBe('`````notes.md');
    // Only the last line closes it (CommonMark: a fence at least as long as the opening one).
    const closers = lines.slice(1).filter((line) => /^`{5,}\s*$/.test(line));
    expect(closers).toEqual(['`````']);
    expect(lines.at(-1)).toBe('`````');
    expect(block).toContain(inner);
  });

  it('labels with the path on one line, whatever the name holds', () => {
    expect(fencedFile({ name: 'a`b\nc.txt', text: 'x\n' })).toBe('```a?b?c.txt\nx\n```');
  });
});

describe('composeMessage', () => {
  it('puts the words, then each file in order, then stdin, after blank lines, and says where each file is', () => {
    const prompt = composeMessage('review', [file('a.ts', 'A\n'), file('b.ts', 'B')], 'piped');
    expect(prompt.text).toBe('review\n\n```a.ts\nA\n```\n\n```b.ts\nB\n```\n\npiped');
    expect(prompt.files.map((ref) => prompt.text.slice(ref.start, ref.end))).toEqual(['```a.ts\nA\n```', '```b.ts\nB\n```']);
    expect(prompt.files.map((ref) => [ref.name, ref.bytes])).toEqual([['a.ts', 2], ['b.ts', 1]]);
  });

  it('leaves out empty parts', () => {
    expect(composeMessage('', [file('a', 'x')], '').text).toBe('```a\nx\n```');
    expect(composeMessage('', [], '')).toEqual({ text: '', files: [] });
  });

  it('shows each file as its name and size in /history, the rest as written', () => {
    const prompt = composeMessage('look', [file('big.log', 'x'.repeat(2048))], 'and this');
    expect(summariseMessage(prompt.text, prompt.files)).toBe('look\n\n[file big.log, 2.0 KiB]\n\nand this');
    expect(summariseMessage('plain', undefined)).toBe('plain');
  });
});
